// Which ids of each kind an actor may resolve by id alone (Relay's `node`/`nodes`): exactly the
// rows that kind's own reads answer. Anything else, unknown kinds and ids included, is left out,
// so an id reveals nothing about what exists.
import type { Db } from "../../db/client.js";
import type { Actor } from "../actor.js";
import { visibleAccountsWhere, visibleActiveGrantWhere, visibleEnvironmentsWhere, visibleReleasesWhere, visibleTokensWhere } from "./visibility.js";

type VisibleIds = (db: Db, actor: Actor, ids: string[]) => Promise<{ id: string }[]>;

const select = { id: true } as const;

const VISIBLE_IDS_BY_KIND = {
  // `account(id)`: yourself, or anyone for administrators.
  Account: (db, actor, ids) => db.account.findMany({ where: { AND: [{ id: { in: ids } }, visibleAccountsWhere(actor)] }, select }),
  // `environment(id)`: owned, shared with you, or anything for administrators.
  Environment: (db, actor, ids) => db.environment.findMany({ where: { AND: [{ id: { in: ids } }, visibleEnvironmentsWhere(actor)] }, select }),
  // `toolRelease(id)`: your own releases in any lifecycle.
  ToolRelease: (db, actor, ids) => db.toolRelease.findMany({ where: { AND: [{ id: { in: ids } }, visibleReleasesWhere(actor)] }, select }),
  // `grant(id)`: active grants of available releases in environments you can see.
  Grant: (db, actor, ids) => db.grant.findMany({ where: { AND: [{ id: { in: ids } }, visibleActiveGrantWhere(actor)] }, select }),
  // `revokeApiToken(id)`: your own tokens, revoked or not, or anyone's for administrators.
  ApiToken: (db, actor, ids) => db.apiToken.findMany({ where: { AND: [{ id: { in: ids } }, visibleTokensWhere(actor)] }, select }),
} satisfies Record<string, VisibleIds>;

export type ResolvableKind = keyof typeof VISIBLE_IDS_BY_KIND;

export function isResolvableKind(kind: string): kind is ResolvableKind {
  return Object.hasOwn(VISIBLE_IDS_BY_KIND, kind);
}

/** The ids of one kind the actor may resolve, out of `ids` (one query). */
export async function resolvableIds(db: Db, actor: Actor, kind: ResolvableKind, ids: readonly string[]): Promise<Set<string>> {
  const rows = await VISIBLE_IDS_BY_KIND[kind](db, actor, [...new Set(ids)]);
  return new Set(rows.map((row) => row.id));
}
