// Validate and apply (REST operation 3 and its executing extension; semantics.md "Validate
// and apply"): one body of publications and grant changes, checked identically by both; validate
// returns the publication plan and changes nothing, apply carries the plan out in one transaction.
import type { Database, Db } from "../db/client.js";
import { writeLock, writeTransaction } from "./write-transaction.js";
import type { Grant, ToolRelease } from "../db/generated/sqlite/client.js";
import type { Actor } from "./actor.js";
import { checkReconciliation, executeCreations, type GrantReconciliation } from "./apply-reconciliation.js";
import { deleteCheckedGrants } from "./grants.js";
import { environmentAccess, requireDeployer, type EnvironmentAccess, type EnvironmentOwner } from "./permissions/index.js";
import { assertSourcesPresent, checkPublications, type CheckedPublication, type PublicationRequest } from "./publication-checks.js";
import { executePublications } from "./publication-execution.js";
import { assertNoConflict, newlyPublishedCount, planPublications, publishesOrSupersedes, type PlanEntry, type PlannedPublication } from "./publication-plan.js";
import { assertPublishedReleaseCapacity } from "./releases.js";

export { PUBLICATION_ACTIONS, type PlanEntry, type PublicationAction } from "./publication-plan.js";

export interface ToolMiddlewareChanges {
  grantReconciliation: GrantReconciliation;
  publications: readonly PublicationRequest[];
}

export interface ValidationResult {
  publicationPlan: PlanEntry[];
}

export interface ApplyResult {
  publicationPlan: PlanEntry[];
  /** Releases published or superseding, in plan order. */
  releases: ToolRelease[];
  /** Grants of this environment moved to a superseding release, then the grant each creation resulted in; once each. */
  grants: Grant[];
  deletedGrantIds: string[];
}

/** Viewers may validate; the checks are apply's own, so the plan is what apply would do. */
export async function validateChanges(db: Db, actor: Actor, environmentId: string, changes: ToolMiddlewareChanges): Promise<ValidationResult> {
  const access = await environmentAccess(db, actor, environmentId);
  const { owner, publications } = checkRequest(access, changes);
  const plan = await planPublications(db, access.environment, publications);
  await checkConsequences(db, access, owner, plan, changes.grantReconciliation);
  return { publicationPlan: plan.map((planned) => planned.entry) };
}

/**
 * Owners and deployers apply. Everything is checked before anything is written, and it all runs in
 * one write transaction holding the owner's and the environment's locks: a conflict, a failing
 * creation or a lost race leaves no trace.
 */
export async function applyChanges(db: Database, actor: Actor, environmentId: string, changes: ToolMiddlewareChanges): Promise<ApplyResult> {
  const access = await environmentAccess(db, actor, environmentId);
  requireDeployer(access);
  const { owner, publications } = checkRequest(access, changes);
  const locks = [writeLock.account(access.environment.ownerAccountId), writeLock.environment(environmentId)];
  // An apply that publishes nothing makes only the calls a transaction below Prisma's engine answers.
  const statements = publications.length === 0 ? "below-engine" : "prisma";
  return writeTransaction(
    db,
    locks,
    async (tx) => {
      // The plan is made inside the transaction, on the state the changes commit against.
      const plan = await planPublications(tx, access.environment, publications);
      assertNoConflict(plan);
      assertSourcesPresent(plan.filter(publishesOrSupersedes).map((planned) => planned.publication));
      const { creations, deletions } = await checkConsequences(tx, access, owner, plan, changes.grantReconciliation);

      const published = await executePublications(tx, actor, access.environment, plan);
      const created = await executeCreations(tx, actor, access.environment, creations);
      await deleteCheckedGrants(tx, actor, access.environment, deletions);

      const deletedGrantIds = deletions.map((grant) => grant.id);
      return {
        publicationPlan: plan.map((planned) => planned.entry),
        releases: published.releases,
        grants:
          published.movedGrantIds.length === 0
            ? onceEach(created).filter((grant) => !deletedGrantIds.includes(grant.id))
            : await changedGrants(tx, access.environment.id, [...published.movedGrantIds, ...created.map((grant) => grant.id)], deletedGrantIds),
        deletedGrantIds,
      };
    },
    statements,
  );
}

/** The checks that need nothing but the body and the owner's plan (400, 422). */
function checkRequest(access: EnvironmentAccess, changes: ToolMiddlewareChanges): { owner: EnvironmentOwner; publications: CheckedPublication[] } {
  const { owner } = access.environment;
  return { owner, publications: checkPublications(changes.publications, owner.plan) };
}

/** What the plan and the grant changes would do to the owner's and the environment's limits and grants. */
async function checkConsequences(
  db: Db,
  access: EnvironmentAccess,
  owner: EnvironmentOwner,
  plan: readonly PlannedPublication[],
  reconciliation: GrantReconciliation,
) {
  await assertPublishedReleaseCapacity(db, owner, newlyPublishedCount(plan));
  return checkReconciliation(db, access, owner, plan, reconciliation);
}

/** Each grant once, where it was first answered, as the last creation that answered it left it (a release named twice answers one grant). */
function onceEach(grants: readonly Grant[]): Grant[] {
  const latest = new Map<string, Grant>();
  for (const grant of grants) latest.set(grant.id, grant);
  return [...latest.values()];
}

/** This environment's grants among `ids`, once each, in that order; deleted ones are reported by id instead. */
async function changedGrants(db: Db, environmentId: string, ids: readonly string[], deletedIds: readonly string[]): Promise<Grant[]> {
  const wanted = [...new Set(ids)].filter((id) => !deletedIds.includes(id));
  const grants = await db.grant.findMany({ where: { id: { in: wanted }, environmentId } });
  return wanted.flatMap((id) => grants.filter((grant) => grant.id === id));
}
