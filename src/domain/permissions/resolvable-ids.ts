// Which ids of each kind an actor may resolve by id alone (Relay's `node`/`nodes`): exactly the
// rows that kind's own reads answer. Anything else, unknown kinds and ids included, is left out,
// so an id reveals nothing about what exists.
import type { Db } from "../../db/client.js";
import type { Actor } from "../actor.js";
import {
  visibleAccountsWhere,
  visibleActiveGrantWhere,
  visibleEnvironmentsWhere,
  visibleReleasesWhere,
  visibleTokensWhere,
  visibleWebhooksWhere,
} from "./visibility.js";

type VisibleIds = (db: Db, actor: Actor, ids: string[]) => Promise<{ id: string }[]>;

const select = { id: true } as const;

/**
 * The events among `ids` the actor may read: those of environments it can see and of its own
 * account (administrators: all), as the event connections list them.
 */
async function visibleEventIds(db: Db, actor: Actor, ids: string[]): Promise<{ id: string }[]> {
  const events = await db.changeEvent.findMany({ where: { id: { in: ids } }, select: { id: true, accountId: true, environmentId: true } });
  if (actor.admin) return events;
  const environmentIds = [...new Set(events.flatMap((event) => (event.environmentId ? [event.environmentId] : [])))];
  const visible = await db.environment.findMany({ where: { AND: [{ id: { in: environmentIds } }, visibleEnvironmentsWhere(actor)] }, select: { id: true } });
  const visibleIds = new Set(visible.map((environment) => environment.id));
  return events.filter((event) => event.accountId === actor.id || (event.environmentId !== null && visibleIds.has(event.environmentId)));
}

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
  // Change events: those of environments you can see and of your own account (Environment.events, Account.events).
  ChangeEvent: visibleEventIds,
  // `webhook(id)`: your account's, and those of environments you own or deploy to.
  Webhook: (db, actor, ids) => db.webhook.findMany({ where: { AND: [{ id: { in: ids } }, visibleWebhooksWhere(actor)] }, select }),
  // A delivery: one of a webhook you may see (`Webhook.deliveries`).
  WebhookDelivery: (db, actor, ids) => db.webhookDelivery.findMany({ where: { AND: [{ id: { in: ids } }, { webhook: visibleWebhooksWhere(actor) }] }, select }),
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
