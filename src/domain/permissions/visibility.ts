// Visibility as Prisma filters: which rows of each kind an actor may see. Every read that lists or
// finds rows for an actor (domain reads, GraphQL connections, node lookups) filters with these.
import type { Prisma } from "../../db/client.js";
import type { Actor } from "../actor.js";

/** Accounts see themselves; administrators see every account. */
export function visibleAccountsWhere(actor: Actor): Prisma.AccountWhereInput {
  return actor.admin ? {} : { id: actor.id };
}

/** The account's shares that give access: accepted ones (an offer gives nothing until accepted). */
export function acceptedSharesOf(accountId: string): Prisma.EnvironmentShareWhereInput {
  return { accountId, acceptedAt: { not: null } };
}

/** The accepted shares of any of the accounts. */
export function acceptedSharesOfAny(accountIds: readonly string[]): Prisma.EnvironmentShareWhereInput {
  return { accountId: { in: [...accountIds] }, acceptedAt: { not: null } };
}

/** Environments the actor owns or was shared and accepted (administrators: all). */
export function visibleEnvironmentsWhere(actor: Actor): Prisma.EnvironmentWhereInput {
  if (actor.admin) return {};
  return { OR: [{ ownerAccountId: actor.id }, { shares: { some: acceptedSharesOf(actor.id) } }] };
}

/**
 * Environments listed under an account (`Account.environments`): within that relation (owned by the
 * account), the ones the actor owns too, i.e. none unless the account is the actor. Administrators: all.
 */
export function environmentsListedUnderAccountWhere(actor: Actor): Prisma.EnvironmentWhereInput {
  return actor.admin ? {} : { ownerAccountId: actor.id };
}

/** Releases are visible to their owner and administrators only, in every lifecycle. */
export function visibleReleasesWhere(actor: Actor): Prisma.ToolReleaseWhereInput {
  return actor.admin ? {} : { ownerAccountId: actor.id };
}

/**
 * Releases anyone may grant by id, whoever owns them (cross-account use is the point of the
 * registry): published or superseded ones. A de-published release is not found.
 */
export const GRANTABLE_RELEASE_WHERE = { lifecycle: { in: ["published", "superseded"] } } satisfies Prisma.ToolReleaseWhereInput;

/** Active grants of grantable releases: de-publishing a release hides its grants. */
export const ACTIVE_GRANT_WHERE = { lifecycle: "active", release: GRANTABLE_RELEASE_WHERE } satisfies Prisma.GrantWhereInput;

/** Active grants the actor may get and list: ACTIVE_GRANT_WHERE in an environment the actor can see. */
export function visibleActiveGrantWhere(actor: Actor): Prisma.GrantWhereInput {
  return { ...ACTIVE_GRANT_WHERE, environment: visibleEnvironmentsWhere(actor) };
}

/**
 * The grants listed under a visible environment: the active ones, and with `includeDeleted` the
 * deleted ones too (who may ask for those is `requireDeletedGrantsReadable`). Grants of a
 * de-published release are never listed.
 */
export function environmentGrantsWhere(includeDeleted: boolean): Prisma.GrantWhereInput {
  return includeDeleted ? { release: ACTIVE_GRANT_WHERE.release } : ACTIVE_GRANT_WHERE;
}

/** Where a release is granted, as its owner sees it: its visible active grants, for the release's owner only. */
export function releaseGrantsWhere(actor: Actor): Prisma.GrantWhereInput {
  return { AND: [visibleActiveGrantWhere(actor), { release: visibleReleasesWhere(actor) }] };
}

/** API tokens are visible to their account and administrators. */
export function visibleTokensWhere(actor: Actor): Prisma.ApiTokenWhereInput {
  return actor.admin ? {} : { accountId: actor.id };
}

/** Webhooks the actor may see: its account's, and those of environments it owns or deploys to (administrators: all). */
export function visibleWebhooksWhere(actor: Actor): Prisma.WebhookWhereInput {
  if (actor.admin) return {};
  return {
    OR: [
      { environmentId: null, accountId: actor.id },
      { environment: { OR: [{ ownerAccountId: actor.id }, { shares: { some: { ...acceptedSharesOf(actor.id), role: "deployer" } } }] } },
    ],
  };
}
