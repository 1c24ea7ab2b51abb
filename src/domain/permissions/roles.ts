// Roles and checks: who may act on what. The rule (semantics.md): not allowed to see a resource or
// its parent → its not-found code (existence is not leaked); allowed to see but not to act →
// AUTH_FORBIDDEN. Each check throws that error and returns nothing when the actor may go on.
import { findFirstSelected, type Db, type Prisma } from "../../db/client.js";
import type { Account, Environment, EnvironmentShare } from "../../db/generated/sqlite/client.js";
import type { Actor } from "../actor.js";
import { forbidden } from "../errors.js";
import { accountNotFound, environmentNotFound } from "./not-found.js";
import { acceptedSharesOf, acceptedSharesOfAny } from "./visibility.js";

export type EnvironmentRole = "owner" | "deployer" | "viewer";

/** What the write checks need of an environment's owner (plan limits, coordinates): read with the environment. */
export type EnvironmentOwner = Pick<Account, "id" | "email" | "plan">;

export interface EnvironmentAccess {
  environment: Environment & { owner: EnvironmentOwner };
  /** The actor's role; admins act as owners. */
  role: EnvironmentRole;
}

/** What deciding a role needs of an environment. */
export type EnvironmentOwnership = Pick<Environment, "id" | "ownerAccountId">;

/** What deciding a role needs of a share. */
export type ShareGrant = Pick<EnvironmentShare, "accountId" | "role" | "acceptedAt">;

/** The actor's role in an environment (its shares loaded, if any), or undefined when it may not see it. */
export function roleIn(actor: Actor, environment: EnvironmentOwnership & { shares?: ShareGrant[] }): EnvironmentRole | undefined {
  if (actor.admin || environment.ownerAccountId === actor.id) return "owner";
  // An offer not yet accepted gives nothing.
  const share = environment.shares?.find((candidate) => candidate.accountId === actor.id && candidate.acceptedAt !== null);
  if (!share) return undefined;
  // Fail closed: a role the database should never hold grants no more than viewing.
  return share.role === "deployer" ? "deployer" : "viewer";
}

/** An environment's columns, for reads that select rather than include (planned reads answer selections only). */
export const ENVIRONMENT_COLUMNS = { id: true, ownerAccountId: true, name: true, versionCheck: true, createdAt: true } satisfies Prisma.EnvironmentSelect;

/** The actor's accepted share: what deciding its role needs of an environment's shares. */
export const acceptedShareSelect = (actor: Actor) =>
  ({
    where: acceptedSharesOf(actor.id),
    select: { accountId: true, role: true, acceptedAt: true },
    orderBy: { accountId: "asc" },
  }) satisfies Prisma.Environment$sharesArgs;

/** What an access check reads with an environment: its columns, the actor's accepted share, and the owner for the write checks. */
export const accessSelect = (actor: Actor) =>
  ({
    ...ENVIRONMENT_COLUMNS,
    shares: acceptedShareSelect(actor),
    owner: { select: { id: true, email: true, plan: true } },
  }) satisfies Prisma.EnvironmentSelect;

/** The environment row read with accessSelect and the actor's role in it, or ENVIRONMENT_NOT_FOUND when there is none or it may not see it. */
export function accessTo<Row extends EnvironmentOwnership & { shares: ShareGrant[] }>(
  actor: Actor,
  environmentId: string,
  row: Row | null,
): { environment: Row; role: EnvironmentRole } {
  const role = row ? roleIn(actor, row) : undefined;
  if (!row || !role) throw environmentNotFound(environmentId);
  return { environment: row, role };
}

/** Loads an environment the actor can see, or throws ENVIRONMENT_NOT_FOUND. */
export async function environmentAccess(db: Db, actor: Actor, environmentId: string): Promise<EnvironmentAccess> {
  return accessTo(actor, environmentId, await findFirstSelected(db, "environment", { id: environmentId }, accessSelect(actor)));
}

/** The ids of those of `actors` who may see the environment: one lookup of it (with those accounts' shares), however many they are. */
export async function actorsWhoSeeEnvironment(db: Db, actors: readonly Actor[], environmentId: string): Promise<Set<string>> {
  const environment = await db.environment.findUnique({
    where: { id: environmentId },
    select: { id: true, ownerAccountId: true, shares: { where: acceptedSharesOfAny(actors.map((actor) => actor.id)) } },
  });
  if (!environment) return new Set();
  return new Set(actors.filter((actor) => roleIn(actor, environment) !== undefined).map((actor) => actor.id));
}

export function requireDeployer(access: { environment: Pick<Environment, "id">; role: EnvironmentRole }): void {
  if (access.role === "viewer") throw forbidden(`viewers of environment ${access.environment.id} may not change its grants`);
}

export function requireOwner(access: { environment: Pick<Environment, "id">; role: EnvironmentRole }): void {
  if (access.role !== "owner") throw forbidden(`only the owner of environment ${access.environment.id} may do this`);
}

/** Deleted grants are the owner's business: deployers and viewers asking for them get AUTH_FORBIDDEN. */
export function requireDeletedGrantsReadable(actor: Actor, environment: EnvironmentOwnership): void {
  if (roleIn(actor, environment) !== "owner") throw forbidden(`only the owner of environment ${environment.id} may list its deleted grants`);
}

export function requireAdmin(actor: Actor, action: string): void {
  if (!actor.admin) throw forbidden(`only administrators may ${action}`);
}

/** Accounts see (and act for) themselves; admins see every account. */
export function canSeeAccount(actor: Actor, accountId: string): boolean {
  return actor.admin || actor.id === accountId;
}

/** ACCOUNT_NOT_FOUND unless the actor may see (and act for) the account. "system" may act for any. */
export function requireAccountVisible(actor: Actor | "system", accountId: string): void {
  if (actor !== "system" && !canSeeAccount(actor, accountId)) throw accountNotFound(accountId);
}
