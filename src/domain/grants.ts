// Grants: an environment's grant of one exact release (semantics.md "Grants"). Soft-deleted, one
// row per (environment, release); create is idempotent and an automatic request never takes over
// a manual grant. Lifecycle changes are conditional updates, so of two racing requests exactly one
// wins and the other gets the answer it would get had it arrived second.
import { findFirstSelected, type Db, type Prisma } from "../db/client.js";
import { concurrentUpdate, LostRace, takeLocks, writeLock, writeTransaction } from "./write-transaction.js";
import type { Account, Environment, Grant } from "../db/generated/sqlite/client.js";
import type { Actor } from "./actor.js";
import { DomainError, forbidden, invalidRequest, limitExceeded } from "./errors.js";
import {
  findSelectedRelease,
  parseReleaseSelector,
  selectedReleaseNotFound,
  type GrantedRelease,
  type SelectedRelease,
  type ReleaseSelectorInput,
} from "./grant-release-selector.js";
import {
  acceptedShareSelect,
  acceptedSharesOf,
  accessSelect,
  accessTo,
  ENVIRONMENT_COLUMNS,
  type EnvironmentRole,
  type ShareGrant,
  grantNotFound,
  requireDeployer,
  roleIn,
  visibleActiveGrantWhere,
  visibleEnvironmentsWhere,
} from "./permissions/index.js";
import { limitsOf } from "./plans.js";
import type { RowLoader } from "./reads.js";
import { referencedReleaseNotFound } from "./releases.js";
import { recorded, type ChangeEventType } from "./events.js";

/** The event of a grant change, charged to the environment's owner. */
const grantEvent = (type: ChangeEventType, actor: Actor | "system", environment: Pick<Environment, "ownerAccountId">) => (grant: Grant) => ({
  type,
  actor,
  accountId: environment.ownerAccountId,
  subject: { grant },
});

const grantConflict = (message: string) => new DomainError("ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_CONFLICT", message);

/** A grant's columns, for reads that select rather than include (planned reads answer selections only). */
export const GRANT_COLUMNS = {
  id: true,
  environmentId: true,
  releaseId: true,
  protected: true,
  automatic: true,
  followCoordinates: true,
  lifecycle: true,
  createdAt: true,
  createdById: true,
  stateChangedAt: true,
  stateChangedById: true,
} satisfies Prisma.GrantSelect;

/** List order: release name, version, then creation; the id makes the order total for cursors. */
export const GRANT_LIST_ORDER = [
  { release: { name: "asc" } },
  { release: { version: "asc" } },
  { createdAt: "asc" },
  { id: "asc" },
] satisfies Prisma.GrantOrderByWithRelationInput[];

export interface GrantCreation {
  release: ReleaseSelectorInput;
  /** true = managed by reconciliation, false (default) = managed by a person. */
  automatic?: boolean | null | undefined;
}

export interface GrantFlags {
  automatic: boolean;
  followCoordinates: boolean;
}

/** An active grant the actor can see, loaded by `load`; 404 otherwise. */
export async function findGrant<Row>(actor: Actor, grantId: string, load: RowLoader<Prisma.GrantWhereInput, Row>): Promise<Row> {
  const grant = await load({ id: grantId, ...visibleActiveGrantWhere(actor) });
  if (!grant) throw grantNotFound(grantId);
  return grant;
}

/** The grant created (or kept), with the release it grants as the write read it, its owner included. */
export type GrantWithRelease = Grant & { release: SelectedRelease };

/** Grants a release to an environment (operation 2); see `grantRelease` for the rules. */
export async function createGrant(db: Db, actor: Actor, environmentId: string, creation: GrantCreation): Promise<GrantWithRelease> {
  if (creation.release === undefined || creation.release === null) throw invalidRequest(["release: required"]);
  const selector = parseReleaseSelector(creation.release);
  const flags: GrantFlags = { automatic: creation.automatic ?? false, followCoordinates: selector.type === "ByCoordinates" };
  return writeTransaction(
    db,
    [writeLock.environment(environmentId)],
    async (tx) => {
      // The release is read first so that the environment's row can bring the grant of it along; the
      // errors keep their order: the environment's, then the release's.
      const release = await findSelectedRelease(tx, selector);
      const { access, grantState } = await environmentForGrant(tx, actor, environmentId, release?.id);
      requireDeployer(access);
      if (!release) throw selectedReleaseNotFound(selector);
      return { ...(await grantRelease(tx, actor, access.environment, release, flags, { grantState })), release };
    },
    "below-engine",
  );
}

/** An environment's `_count` of its active grants, read with the environment under its lock. */
export const ACTIVE_GRANT_COUNT = { select: { grants: { where: { lifecycle: "active" } } } } satisfies Prisma.EnvironmentCountOutputTypeDefaultArgs;

/** What the create rules read about an environment besides the environment itself. */
export interface GrantState {
  /** The (environment, release) row, active or deleted, if there is one. */
  existing: Grant | null;
  /** Absent when the caller checked the plan limit itself. */
  activeGrants?: number;
}

/**
 * The environment the actor can see (else ENVIRONMENT_NOT_FOUND) with their role, its owner's plan,
 * and the grant state of `releaseId` in it, in one statement on PostgreSQL (SQLite reads each
 * relation in a statement of its own): the environment's lock is held, so the row and the count are
 * what the insert will see.
 */
async function environmentForGrant(
  db: Db,
  actor: Actor,
  environmentId: string,
  releaseId: string | undefined,
): Promise<{ access: { environment: EnvironmentOfPlan; role: EnvironmentRole }; grantState: GrantState }> {
  const select = {
    ...accessSelect(actor),
    grants: { where: { releaseId }, select: GRANT_COLUMNS, orderBy: { id: "asc" }, take: releaseId === undefined ? 0 : 1 },
    _count: ACTIVE_GRANT_COUNT,
  } satisfies Prisma.EnvironmentSelect;
  const {
    environment: { grants, _count, ...environment },
    role,
  } = accessTo(actor, environmentId, await findFirstSelected(db, "environment", { id: environmentId }, select));
  return { access: { environment, role }, grantState: { existing: grants[0] ?? null, activeGrants: _count.grants } };
}

/** A versionCheck environment takes immutable releases only. */
export function assertGrantableIn(environment: Environment, release: Pick<GrantedRelease, "id" | "immutable">): void {
  if (environment.versionCheck && !release.immutable) {
    throw new DomainError(
      "TOOL_RELEASE_IMMUTABLE_CONFLICT",
      `environment ${environment.id} has versionCheck: only immutable releases may be granted, and release ${release.id} is mutable`,
    );
  }
}

/**
 * The create rules once access is settled and the release resolved (also used by apply): a
 * versionCheck environment takes immutable releases only; a deleted row is restored in place with
 * the new flags; an active one is kept when protected, when an automatic request meets a manual
 * grant, or when the flags already match, and otherwise takes the requested flags. Call inside a
 * write transaction holding the environment's lock: the plan-limit count and the insert must see
 * the same state.
 */
export async function grantRelease(
  db: Db,
  actor: Actor,
  environment: EnvironmentOfPlan,
  release: Pick<GrantedRelease, "id" | "immutable">,
  flags: GrantFlags,
  options: {
    /** The caller already checked the plan limit for this grant, in this transaction, under the environment's lock (apply checks its creations together). */
    capacityChecked?: boolean;
    /** The grant state, read in this transaction under the environment's lock; read here when absent. */
    grantState?: GrantState;
  } = {},
): Promise<Grant> {
  assertGrantableIn(environment, release);
  const { grantState } = options;
  const existing = grantState
    ? grantState.existing
    : await db.grant.findUnique({ where: { environmentId_releaseId: { environmentId: environment.id, releaseId: release.id } } });
  const checkCapacity = () => (options.capacityChecked ? undefined : requireGrantCapacity(db, environment, grantState?.activeGrants));
  const now = new Date();
  if (!existing) {
    await checkCapacity();
    return recorded(
      db,
      await db.grant.create({
        data: {
          environmentId: environment.id,
          releaseId: release.id,
          protected: false,
          ...flags,
          lifecycle: "active",
          createdAt: now,
          createdById: actor.id,
          stateChangedAt: now,
          stateChangedById: actor.id,
        },
      }),
      grantEvent("grant-created", actor, environment),
    );
  }
  if (existing.lifecycle === "deleted") {
    await checkCapacity();
    return recorded(
      db,
      await db.grant.update({
        where: { id: existing.id },
        data: { ...flags, protected: false, lifecycle: "active", stateChangedAt: now, stateChangedById: actor.id },
      }),
      grantEvent("grant-created", actor, environment),
    );
  }
  if (keepsExistingGrant(existing, flags)) return existing;
  return recorded(db, await db.grant.update({ where: { id: existing.id }, data: flags }), grantEvent("grant-flags-changed", actor, environment));
}

function keepsExistingGrant(existing: Grant, requested: GrantFlags): boolean {
  if (existing.protected) return true;
  if (requested.automatic && !existing.automatic) return true;
  return existing.automatic === requested.automatic && existing.followCoordinates === requested.followCoordinates;
}

/** An environment with its owner's plan, read in the same statement. */
type EnvironmentOfPlan = Environment & { owner: Pick<Account, "plan"> };

/** 422 when one more active grant would exceed the environment owner's plan; `counted`: the active grants, when read already. */
async function requireGrantCapacity(db: Db, environment: EnvironmentOfPlan, counted?: number): Promise<void> {
  const { owner } = environment;
  const limit = limitsOf(owner.plan).activeGrantsPerEnvironment;
  if (limit === null) return;
  const active = counted ?? (await db.grant.count({ where: { environmentId: environment.id, lifecycle: "active" } }));
  if (active >= limit) {
    throw limitExceeded(`plan ${owner.plan} allows ${limit} active grants per environment; environment ${environment.id} has ${active}`);
  }
}

const ATTEMPTS_AFTER_LOST_RACE = 3;

/** Soft-deletes an active grant (operation 5). An automatic deletion may only remove automatic grants. */
export function deleteGrant(db: Db, actor: Actor, grantId: string, options: { automatic?: boolean | null | undefined } = {}): Promise<Grant> {
  return writeTransaction(db, [], (tx) => softDeleteGrant(tx, actor, grantId, options.automatic ?? false), "below-engine");
}

/** What a deletion reads: the grant, its environment and the actor's accepted share of it. */
const deletionSelect = (actor: Actor) =>
  ({ ...GRANT_COLUMNS, environment: { select: { ...ENVIRONMENT_COLUMNS, shares: acceptedShareSelect(actor) } } }) satisfies Prisma.GrantSelect;

// No lock: deleting frees capacity, and the conditional update settles races on the row itself.
async function softDeleteGrant(db: Db, actor: Actor, grantId: string, automatic: boolean): Promise<Grant> {
  for (let attempt = 1; attempt <= ATTEMPTS_AFTER_LOST_RACE; attempt += 1) {
    const grant = await findFirstSelected(db, "grant", { id: grantId, ...visibleActiveGrantWhere(actor) }, deletionSelect(actor));
    if (!grant) throw grantNotFound(grantId);
    requireUserManageable(actor, grant);
    if (automatic && !grant.automatic) {
      throw grantConflict(`grant ${grantId} is managed by a person (automatic: false); an automatic deletion may not remove it`);
    }
    const state = deletedBy(actor);
    const { count } = await db.grant.updateMany({
      where: { id: grantId, lifecycle: "active", protected: false, ...(automatic ? { automatic: true } : {}) },
      data: state,
    });
    const { environment: _environment, ...row } = grant;
    if (count === 1) return recorded(db, { ...row, ...state }, grantEvent("grant-deleted", actor, grant.environment));
    // Someone changed the grant between our read and our write: the next read explains how.
  }
  throw concurrentUpdate();
}

/**
 * Soft-deletes automatic grants of `environment` that apply checked in this transaction, in one
 * conditional update, and records their events in order. A grant deleted or changed by another
 * request since the check makes the transaction run again (LostRace), and its check answers then.
 */
export async function deleteCheckedGrants(
  db: Db,
  actor: Actor,
  environment: Pick<Environment, "id" | "ownerAccountId">,
  grants: readonly Grant[],
): Promise<void> {
  if (grants.length === 0) return;
  const state = deletedBy(actor);
  const { count } = await db.grant.updateMany({
    where: { id: { in: grants.map((grant) => grant.id) }, environmentId: environment.id, lifecycle: "active", protected: false, automatic: true },
    data: state,
  });
  if (count !== grants.length) throw new LostRace(`${grants.length - count} of the grants to delete changed since they were checked`);
  for (const grant of grants) recorded(db, { ...grant, ...state }, grantEvent("grant-deleted", actor, environment));
}

/** The columns a soft deletion by `actor` sets, now. */
const deletedBy = (actor: Actor) => ({ lifecycle: "deleted", stateChangedAt: new Date(), stateChangedById: actor.id });

/** Re-activates a deleted grant (operation 6) as a manual grant. Finds deleted grants too. */
export async function restoreGrant(db: Db, actor: Actor, grantId: string): Promise<Grant> {
  return writeTransaction(db, [], async (tx) => {
    const located = await tx.grant.findUnique({ where: { id: grantId }, select: { environmentId: true } });
    if (located) await takeLocks(tx, [writeLock.environment(located.environmentId)]);
    const grant = await tx.grant.findFirst({
      where: { id: grantId, environment: visibleEnvironmentsWhere(actor) },
      include: { release: true, environment: { include: { shares: { where: acceptedSharesOf(actor.id) }, owner: { select: { plan: true } } } } },
    });
    if (!grant) throw grantNotFound(grantId);
    requireUserManageable(actor, grant);
    if (grant.lifecycle !== "deleted") throw grantConflict(`grant ${grantId} is ${grant.lifecycle}; only deleted grants can be restored`);
    if (grant.release.lifecycle === "de-published") throw referencedReleaseNotFound(grant.releaseId);
    await requireGrantCapacity(tx, grant.environment);
    const now = new Date();
    const { count } = await tx.grant.updateMany({
      where: { id: grantId, lifecycle: "deleted" },
      data: { lifecycle: "active", automatic: false, stateChangedAt: now, stateChangedById: actor.id },
    });
    if (count !== 1) throw concurrentUpdate();
    const { environment: _environment, release: _release, ...row } = grant;
    return recorded(
      tx,
      { ...row, lifecycle: "active", automatic: false, stateChangedAt: now, stateChangedById: actor.id },
      grantEvent("grant-restored", actor, grant.environment),
    );
  });
}

/**
 * System provisioning (never reachable by users): an active, protected, automatic grant that users
 * can neither delete nor restore. Re-provisioning re-activates and re-protects the row.
 */
export async function provisionProtectedGrant(db: Db, input: { environmentId: string; releaseId: string; actorId: string }): Promise<Grant> {
  const now = new Date();
  const state = { protected: true, automatic: true, lifecycle: "active", stateChangedAt: now, stateChangedById: input.actorId };
  return writeTransaction(db, [], async (tx) =>
    recorded(
      tx,
      await tx.grant.upsert({
        where: { environmentId_releaseId: { environmentId: input.environmentId, releaseId: input.releaseId } },
        create: {
          environmentId: input.environmentId,
          releaseId: input.releaseId,
          followCoordinates: false,
          createdAt: now,
          createdById: input.actorId,
          ...state,
        },
        update: state,
      }),
      grantEvent("grant-provisioned", "system", await tx.environment.findUniqueOrThrow({ where: { id: input.environmentId } })),
    ),
  );
}

/** Viewers may not change grants (403); nobody may change a protected one (403). */
function requireUserManageable(actor: Actor, grant: Grant & { environment: Environment & { shares: ShareGrant[] } }): void {
  const role = roleIn(actor, grant.environment);
  if (!role) throw grantNotFound(grant.id);
  requireDeployer({ environment: grant.environment, role });
  if (grant.protected) throw forbidden(`grant ${grant.id} is protected: it is provisioned by the system and cannot be deleted or restored`);
}
