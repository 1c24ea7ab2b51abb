// Which Relay global ids `node` and `nodes` may resolve. The domain's permission policy decides,
// per type, exactly the objects that type's own query answers; every other id (unknown types and
// ids included) resolves to null, so a global id reveals nothing about what exists.
import { isResolvableKind, resolvableIds } from "../domain/permissions/index.js";
import type { Context } from "./context.js";

export interface GlobalId {
  typename: string;
  id: string;
}

/** The global ids the viewer may resolve, in order; null in place of every other one. One query per type. */
export async function visibleGlobalIds(context: Context, globalIds: readonly GlobalId[]): Promise<(GlobalId | null)[]> {
  const actor = context.actor();
  const idsByType = new Map<string, string[]>();
  for (const { typename, id } of globalIds) idsByType.set(typename, [...(idsByType.get(typename) ?? []), id]);
  const visibleByType = new Map<string, Set<string>>();
  await Promise.all(
    [...idsByType].map(async ([typename, ids]) => {
      if (isResolvableKind(typename)) visibleByType.set(typename, await resolvableIds(context.db, actor, typename, ids));
    }),
  );
  return globalIds.map((globalId) => (visibleByType.get(globalId.typename)?.has(globalId.id) ? globalId : null));
}
