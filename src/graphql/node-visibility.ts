// Which Relay global ids `node` and `nodes` may resolve: exactly the objects each type's own query
// answers (`account`, `environment`, `toolRelease`, `grant`). Everything else, unknown types and
// ids included, resolves to null, so a global id reveals nothing about what exists.
import type { Database } from "../db/client.js";
import type { Actor } from "../domain/actor.js";
import { visibleActiveGrantWhere } from "../domain/grants.js";
import { visibleEnvironmentsWhere } from "../domain/permissions.js";
import { visibleReleasesWhere } from "../domain/releases.js";
import { visibleEventIds } from "../domain/events.js";
import type { Context } from "./context.js";

export interface GlobalId {
  typename: string;
  id: string;
}

type VisibleIds = (db: Database, actor: Actor, ids: string[]) => Promise<{ id: string }[]>;

const select = { id: true } as const;

const VISIBLE_IDS_BY_TYPE: Record<string, VisibleIds> = {
  // `account(id)`: yourself, or anyone for administrators.
  Account: (db, actor, ids) => db.account.findMany({ where: { id: { in: actor.admin ? ids : ids.filter((id) => id === actor.id) } }, select }),
  // `environment(id)`: owned, shared with you, or anything for administrators.
  Environment: (db, actor, ids) => db.environment.findMany({ where: { AND: [{ id: { in: ids } }, visibleEnvironmentsWhere(actor)] }, select }),
  // `toolRelease(id)`: your own releases in any lifecycle.
  ToolRelease: (db, actor, ids) => db.toolRelease.findMany({ where: { AND: [{ id: { in: ids } }, visibleReleasesWhere(actor)] }, select }),
  // `grant(id)`: active grants of available releases in environments you can see.
  Grant: (db, actor, ids) => db.grant.findMany({ where: { AND: [{ id: { in: ids } }, visibleActiveGrantWhere(actor)] }, select }),
  // Change events: those of environments you can see and of your own account (Environment.events, Account.events).
  ChangeEvent: visibleEventIds,
};

/** The global ids the viewer may resolve, in order; null in place of every other one. One query per type. */
export async function visibleGlobalIds(context: Context, globalIds: readonly GlobalId[]): Promise<(GlobalId | null)[]> {
  const actor = context.actor();
  const idsByType = new Map<string, string[]>();
  for (const { typename, id } of globalIds) {
    if (VISIBLE_IDS_BY_TYPE[typename]) idsByType.set(typename, [...(idsByType.get(typename) ?? []), id]);
  }
  const visibleByType = new Map<string, Set<string>>();
  await Promise.all(
    [...idsByType].map(async ([typename, ids]) => {
      const rows = await VISIBLE_IDS_BY_TYPE[typename]!(context.db, actor, [...new Set(ids)]);
      visibleByType.set(typename, new Set(rows.map((row) => row.id)));
    }),
  );
  return globalIds.map((globalId) => (visibleByType.get(globalId.typename)?.has(globalId.id) ? globalId : null));
}
