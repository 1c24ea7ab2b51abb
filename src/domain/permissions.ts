// Who may see and do what. The rule (semantics.md): not allowed to see a resource or its parent →
// its not-found code (existence is not leaked); allowed to see but not to act → AUTH_FORBIDDEN.
import type { Db } from "../db/client.js";
import type { Environment } from "../db/generated/sqlite/client.js";
import type { Actor } from "./actor.js";
import { DomainError, forbidden } from "./errors.js";

export type EnvironmentRole = "owner" | "deployer" | "viewer";

export interface EnvironmentAccess {
  environment: Environment;
  /** The actor's role; admins act as owners. */
  role: EnvironmentRole;
}

export const environmentNotFound = (id: string) => new DomainError("ENVIRONMENT_NOT_FOUND", `environment ${id} not found`);

export function roleIn(actor: Actor, environment: Environment & { shares?: { accountId: string; role: string }[] }): EnvironmentRole | undefined {
  if (actor.admin || environment.ownerAccountId === actor.id) return "owner";
  const share = environment.shares?.find((candidate) => candidate.accountId === actor.id);
  if (!share) return undefined;
  // Fail closed: a role the database should never hold grants no more than viewing.
  return share.role === "deployer" ? "deployer" : "viewer";
}

/** Loads an environment the actor can see, or throws ENVIRONMENT_NOT_FOUND. */
export async function environmentAccess(db: Db, actor: Actor, environmentId: string): Promise<EnvironmentAccess> {
  const environment = await db.environment.findUnique({
    where: { id: environmentId },
    include: { shares: { where: { accountId: actor.id } } },
  });
  const role = environment ? roleIn(actor, environment) : undefined;
  if (!environment || !role) throw environmentNotFound(environmentId);
  return { environment, role };
}

export function requireDeployer(access: EnvironmentAccess): void {
  if (access.role === "viewer") throw forbidden(`viewers of environment ${access.environment.id} may not change its grants`);
}

export function requireOwner(access: EnvironmentAccess): void {
  if (access.role !== "owner") throw forbidden(`only the owner of environment ${access.environment.id} may do this`);
}

/** Prisma filter: environments the actor can see. */
export function visibleEnvironmentsWhere(actor: Actor) {
  if (actor.admin) return {};
  return { OR: [{ ownerAccountId: actor.id }, { shares: { some: { accountId: actor.id } } }] };
}

/** Accounts see (and act for) themselves; admins see every account. */
export function canSeeAccount(actor: Actor, accountId: string): boolean {
  return actor.admin || actor.id === accountId;
}
