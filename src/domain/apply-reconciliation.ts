// The grant reconciliation part of validate/apply: creations and deletions are checked against
// the database as it is plus the publications planned in the same body, so that validate answers
// exactly what apply would do, and apply can check everything before it changes anything.
import { findFirstSelected, findManyPlanned, type Db, type Prisma } from "../db/client.js";
import type { Environment, Grant } from "../db/generated/sqlite/client.js";
import type { Actor } from "./actor.js";
import { DomainError, forbidden, invalidRequest, limitExceeded } from "./errors.js";
import {
  GRANTED_RELEASE_COLUMNS,
  parseReleaseSelector,
  resolveReleaseSelector,
  type GrantedRelease,
  selectedReleaseNotFound,
  type ReleaseSelector,
  type ReleaseSelectorInput,
} from "./grant-release-selector.js";
import { ACTIVE_GRANT_COUNT, assertGrantableIn, GRANT_COLUMNS, grantRelease, type GrantFlags } from "./grants.js";
import { ACTIVE_GRANT_WHERE, GRANTABLE_RELEASE_WHERE, grantNotFound, requireDeployer, type EnvironmentAccess } from "./permissions/index.js";
import { limitsOf } from "./plans.js";
import { publishesOrSupersedes, type PlannedPublication } from "./publication-plan.js";

export interface GrantReconciliation {
  creations: readonly ReconciliationCreation[];
  /** UUIDs of automatic grants of this environment to delete. */
  deletions: readonly string[];
}

interface ReconciliationCreation {
  release: ReleaseSelectorInput;
  automatic?: boolean | null | undefined;
}

/** A creation whose release is known: an existing row, or a coordinate this body publishes. */
export interface ResolvedCreation {
  path: string;
  selector: ReleaseSelector;
  flags: GrantFlags;
  release: GrantedRelease | PlannedPublication;
}

const creationPath = (index: number) => `grantReconciliation.creations[${index}].release`;
const deletionPath = (index: number) => `grantReconciliation.deletions[${index}]`;

/**
 * Checks creations as create would (403 for viewers, 400 malformed selector, 404 unknown release,
 * 409 mutable release in a versionCheck environment, 422 grant limit) and deletions as reconciliation
 * may make them (404 unless an active automatic grant of this environment, 403 when protected).
 */
export async function checkReconciliation(
  db: Db,
  access: EnvironmentAccess,
  owner: { email: string; plan: string },
  plan: readonly PlannedPublication[],
  reconciliation: GrantReconciliation,
): Promise<{ creations: ResolvedCreation[]; deletions: Grant[] }> {
  if (reconciliation.creations.length === 0 && reconciliation.deletions.length === 0) return { creations: [], deletions: [] };
  requireDeployer(access);
  const selectors = parseSelectors(reconciliation.creations);
  assertUniqueDeletions(reconciliation.deletions);
  const creations: ResolvedCreation[] = [];
  const byId = await releasesById(db, selectors);
  for (const [index, selector] of selectors.entries()) {
    const release = plannedRelease(selector, owner.email, plan) ?? (await selectedRelease(db, selector, byId, creationPath(index)));
    if (!("entry" in release)) assertGrantableIn(access.environment, release);
    const automatic = reconciliation.creations[index]!.automatic ?? false;
    creations.push({ path: creationPath(index), selector, flags: { automatic, followCoordinates: selector.type === "ByCoordinates" }, release });
  }
  await assertGrantCapacity(db, access.environment, owner.plan, creations);
  const deletable = await activeGrantsById(db, access.environment, reconciliation.deletions);
  const deletions = reconciliation.deletions.map((grantId, index) => deletableGrant(deletable.get(grantId), access.environment, grantId, deletionPath(index)));
  return { creations, deletions };
}

/** Grants the checked creations inside apply's transaction, after its publications. */
export async function executeCreations(
  db: Db,
  actor: Actor,
  environment: EnvironmentAccess["environment"],
  creations: readonly ResolvedCreation[],
): Promise<Grant[]> {
  const grants: Grant[] = [];
  // The rows of the releases resolved already, read together; each creation's result replaces its
  // release's row, so a release named twice sees the first creation's grant.
  const resolved = resolvedReleaseIds(creations);
  const rowOf = new Map<string, Grant | null>(resolved.map((id) => [id, null]));
  if (resolved.length > 0) {
    const rows = await findManyPlanned(db, "grant", {
      where: { environmentId: environment.id, releaseId: { in: resolved } },
      select: GRANT_COLUMNS,
      orderBy: { id: "asc" },
    });
    for (const row of rows) rowOf.set(row.releaseId, row);
  }
  for (const creation of creations) {
    // A coordinate this body publishes or supersedes is resolved now, to the new release (which a
    // publication may have moved a grant to); any other release was resolved in this transaction
    // already, and its row is what grantRelease needs.
    const planned = "entry" in creation.release;
    const release = planned ? await resolveReleaseSelector(db, creation.selector, creation.path) : (creation.release as GrantedRelease);
    // checkReconciliation checked the plan limit for all creations together, in this transaction.
    const grantState = planned ? undefined : { existing: rowOf.get(release.id) ?? null };
    const grant = await grantRelease(db, actor, environment, release, creation.flags, { capacityChecked: true, ...(grantState ? { grantState } : {}) });
    if (!planned) rowOf.set(release.id, grant);
    grants.push(grant);
  }
  return grants;
}

/** The ids of the creations' releases that exist already (not those this body publishes). */
const resolvedReleaseIds = (creations: readonly ResolvedCreation[]) =>
  creations.flatMap((creation) => ("entry" in creation.release ? [] : [creation.release.id]));

/** The releases the ById selectors name that may be granted now, by id, in one statement. */
async function releasesById(db: Db, selectors: readonly ReleaseSelector[]): Promise<Map<string, GrantedRelease>> {
  const ids = selectors.flatMap((selector) => (selector.type === "ById" ? [selector.releaseId] : []));
  if (ids.length === 0) return new Map();
  const releases = await findManyPlanned(db, "toolRelease", {
    where: { id: { in: [...new Set(ids)] }, ...GRANTABLE_RELEASE_WHERE },
    select: GRANTED_RELEASE_COLUMNS,
    orderBy: { id: "asc" },
  });
  return new Map(releases.map((release) => [release.id, release]));
}

/** What resolveReleaseSelector answers, a ById selector answered from `byId`. */
async function selectedRelease(db: Db, selector: ReleaseSelector, byId: ReadonlyMap<string, GrantedRelease>, path: string): Promise<GrantedRelease> {
  if (selector.type !== "ById") return resolveReleaseSelector(db, selector, path);
  const release = byId.get(selector.releaseId);
  if (!release) throw selectedReleaseNotFound(selector);
  return release;
}

function parseSelectors(creations: readonly ReconciliationCreation[]): ReleaseSelector[] {
  const problems: string[] = [];
  const selectors: ReleaseSelector[] = [];
  creations.forEach((creation, index) => {
    try {
      selectors.push(parseReleaseSelector(creation.release, creationPath(index)));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      problems.push(...error.problems);
    }
  });
  if (problems.length > 0) throw invalidRequest(problems);
  return selectors;
}

function assertUniqueDeletions(deletions: readonly string[]): void {
  const seen = new Map<string, number>();
  const problems: string[] = [];
  deletions.forEach((grantId, index) => {
    const key = grantId.toLowerCase();
    const first = seen.get(key);
    if (first === undefined) seen.set(key, index);
    else problems.push(`${deletionPath(index)}: grant ${grantId} is already deleted by ${deletionPath(first)}`);
  });
  if (problems.length > 0) throw invalidRequest(problems);
}

/** A ByCoordinates selector naming a coordinate this body publishes or supersedes. */
function plannedRelease(selector: ReleaseSelector, ownerEmail: string, plan: readonly PlannedPublication[]): PlannedPublication | undefined {
  if (selector.type !== "ByCoordinates" || selector.account !== ownerEmail.toLowerCase()) return undefined;
  return plan.find((planned) => publishesOrSupersedes(planned) && planned.entry.name === selector.name && planned.entry.version === selector.version);
}

/**
 * Creations run before deletions, so only creations count: each release not yet actively granted
 * here adds one active grant, and the total may not exceed the owner's plan.
 */
async function assertGrantCapacity(db: Db, environment: Environment, plan: string, creations: readonly ResolvedCreation[]): Promise<void> {
  const limit = limitsOf(plan).activeGrantsPerEnvironment;
  if (limit === null || creations.length === 0) return;
  const existingIds = resolvedReleaseIds(creations);
  // The environment's active grant count and its active grants of these releases, in one read.
  const select = {
    _count: ACTIVE_GRANT_COUNT,
    grants: { where: { releaseId: { in: existingIds }, lifecycle: "active" }, select: { releaseId: true }, orderBy: { releaseId: "asc" } },
  } satisfies Prisma.EnvironmentSelect;
  const counted = await findFirstSelected(db, "environment", { id: environment.id }, select);
  if (!counted) throw new Error(`environment ${environment.id} vanished under its lock`);
  const alreadyActive = new Set(counted.grants.map((grant) => grant.releaseId));
  const added = new Set(
    creations
      .map((creation) => ("entry" in creation.release ? `planned:${creation.release.entry.name}@${creation.release.entry.version}` : creation.release.id))
      .filter((key) => !alreadyActive.has(key)),
  );
  if (added.size === 0) return;
  const active = counted._count.grants;
  if (active + added.size > limit) {
    throw limitExceeded(
      `plan ${plan} allows ${limit} active grants per environment; environment ${environment.id} has ${active} and the creations add ${added.size}`,
    );
  }
}

/** The active grants of the environment among `ids`, by id, in one statement. */
async function activeGrantsById(db: Db, environment: Environment, ids: readonly string[]): Promise<Map<string, Grant>> {
  if (ids.length === 0) return new Map();
  const grants = await findManyPlanned(db, "grant", {
    where: { id: { in: [...ids] }, environmentId: environment.id, ...ACTIVE_GRANT_WHERE },
    select: GRANT_COLUMNS,
    orderBy: { id: "asc" },
  });
  return new Map(grants.map((grant) => [grant.id, grant]));
}

/** `grant` (the active grant `grantId` of the environment, if there is one) if reconciliation may delete it. */
function deletableGrant(grant: Grant | undefined, environment: Environment, grantId: string, path: string): Grant {
  if (!grant) throw withPath(grantNotFound(grantId), path);
  if (grant.protected) throw forbidden(`${path}: grant ${grantId} is protected: it is provisioned by the system and cannot be deleted`);
  if (!grant.automatic) {
    throw withPath(
      new DomainError(
        "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND",
        `no automatic grant ${grantId} in environment ${environment.id}: reconciliation deletes only automatic grants`,
      ),
      path,
    );
  }
  return grant;
}

function withPath(error: DomainError, path: string): DomainError {
  return new DomainError(error.code, `${path}: ${error.message}`);
}
