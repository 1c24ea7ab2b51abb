// Tool releases: publication of a validated definition (used by apply, the demo seed and tests),
// and the owner's view of them: get, list, de-publish and restore (REST operations 7-10).
import type { Db, Prisma } from "../db/client.js";
import { takeLocks, writeLock, writeTransaction } from "./write-transaction.js";
import type { Account, ToolRelease } from "../db/generated/sqlite/client.js";
import type { Actor } from "./actor.js";
import { releaseNotFound, visibleReleasesWhere } from "./permissions/index.js";
import type { RowLoader } from "./reads.js";
import {
  canonicalJson,
  metadataDigest,
  METADATA_VERSION,
  sourceDigest,
  validateDefinition,
  type ComponentSource,
  type MiddlewareDefinition,
} from "./definitions/index.js";
import { DomainError, forbidden, invalidRequest, limitExceeded } from "./errors.js";
import { limitsOf } from "./plans.js";
import { appendEvent } from "./events.js";

export const RELEASE_LIFECYCLES = ["published", "de-published", "superseded"] as const;
export type ReleaseLifecycle = (typeof RELEASE_LIFECYCLES)[number];
type ReleaseOrigin = "ordinary" | "protected-system";
type SystemAvailability = "grantable" | "auto-granted" | "ambient";

export const referencedReleaseNotFound = (description: string) =>
  new DomainError("REFERENCED_TOOL_RELEASE_NOT_FOUND", `referenced tool release ${description} not found or not available`);

export interface NewRelease {
  ownerAccountId: string;
  /** The publisher (recorded as createdBy/stateChangedBy). */
  actorId: string;
  definition: unknown;
  source: ComponentSource;
  /** The publishing environment's versionCheck. */
  immutable: boolean;
  origin?: ReleaseOrigin;
  systemAvailability?: SystemAvailability;
}

/** Validates a definition and returns its stored form; throws REQUEST_INVALID listing every issue. */
export function validatedDefinition(definition: unknown, basePath = "definition"): MiddlewareDefinition {
  const validation = validateDefinition(definition, basePath);
  if (!validation.ok) throw invalidRequest(validation.issues);
  return validation.definition;
}

/**
 * Inserts a published release. The (owner, name, version, currentCoordinate) unique index makes a
 * second non-superseded release at the same coordinate fail in the database (P2002).
 */
export async function insertRelease(db: Db, input: NewRelease): Promise<ToolRelease> {
  const definition = validatedDefinition(input.definition);
  const now = new Date();
  return db.toolRelease.create({
    data: {
      ownerAccountId: input.ownerAccountId,
      name: definition.name,
      version: definition.version,
      sourceKind: "component",
      componentId: input.source.componentId,
      componentRevision: input.source.componentRevision,
      componentName: input.source.componentName,
      definition: canonicalJson(definition),
      metadataVersion: METADATA_VERSION,
      metadataDigest: metadataDigest(definition),
      sourceDigest: sourceDigest(input.source),
      immutable: input.immutable,
      lifecycle: "published",
      origin: input.origin ?? "ordinary",
      systemAvailability: input.systemAvailability ?? "grantable",
      currentCoordinate: true,
      createdAt: now,
      createdById: input.actorId,
      stateChangedAt: now,
      stateChangedById: input.actorId,
    },
  });
}

/**
 * A release the actor may see, whatever its lifecycle (owners still manage superseded and
 * de-published releases), loaded by `load`. Anyone else gets TOOL_RELEASE_NOT_FOUND, so existence is not leaked.
 */
export async function findRelease<Row>(actor: Actor, releaseId: string, load: RowLoader<Prisma.ToolReleaseWhereInput, Row>): Promise<Row> {
  const release = await load({ id: releaseId, ...visibleReleasesWhere(actor) });
  if (!release) throw releaseNotFound(releaseId);
  return release;
}

/**
 * Throws LIMIT_EXCEEDED when `additional` more published releases would take the owner past the
 * "published releases per account" limit of its plan. De-published and superseded releases do not count.
 */
export async function assertPublishedReleaseCapacity(db: Db, owner: Pick<Account, "id" | "plan">, additional: number): Promise<void> {
  const limit = limitsOf(owner.plan).publishedReleasesPerAccount;
  if (limit === null || additional <= 0) return;
  const published = await db.toolRelease.count({ where: { ownerAccountId: owner.id, lifecycle: "published" } });
  if (published + additional > limit) {
    throw limitExceeded(`plan ${owner.plan} allows ${limit} published releases per account; account ${owner.id} has ${published}`);
  }
}

/** published → de-published. Grants are not touched: they disappear from view until a restore. */
export function depublishRelease(db: Db, actor: Actor, releaseId: string): Promise<ToolRelease> {
  return changeLifecycle(db, actor, releaseId, { from: "published", to: "de-published", verb: "de-publish", done: "de-published" });
}

/**
 * de-published → published, within the owner's plan limit. A de-published release keeps its
 * coordinate (only superseding releases it), so no other release can have taken it meanwhile.
 */
export function restoreRelease(db: Db, actor: Actor, releaseId: string): Promise<ToolRelease> {
  return changeLifecycle(db, actor, releaseId, { from: "de-published", to: "published", verb: "restore", done: "restored" });
}

interface Transition {
  from: ReleaseLifecycle;
  to: ReleaseLifecycle;
  /** For messages: "may not de-publish it", "can be restored". */
  verb: string;
  done: string;
}

function changeLifecycle(db: Db, actor: Actor, releaseId: string, transition: Transition): Promise<ToolRelease> {
  return writeTransaction(db, [], async (tx) => {
    const release = await tx.toolRelease.findFirst({
      where: { id: releaseId, ...visibleReleasesWhere(actor) },
      include: { owner: { select: { id: true, plan: true } } },
    });
    if (!release) throw releaseNotFound(releaseId);
    if (release.origin === "protected-system") {
      throw forbidden(`tool release ${releaseId} is provided by the system; nobody may ${transition.verb} it`);
    }
    if (release.lifecycle !== transition.from) throw lifecycleConflict(releaseId, release.lifecycle, transition);
    // Restoring takes one of the owner's published-release slots: counted under the owner's lock.
    if (transition.to === "published") {
      await takeLocks(tx, [writeLock.account(release.ownerAccountId)]);
      await assertPublishedReleaseCapacity(tx, release.owner, 1);
    }
    // The lifecycle condition makes concurrent transitions of one release race in the database:
    // exactly one update matches, the others see count 0 and answer 409.
    const change = { lifecycle: transition.to, stateChangedAt: laterThan(release.stateChangedAt), stateChangedById: actor.id };
    const { count } = await tx.toolRelease.updateMany({ where: { id: releaseId, lifecycle: transition.from }, data: change });
    if (count === 0) {
      const current = await tx.toolRelease.findUnique({ where: { id: releaseId }, select: { lifecycle: true } });
      throw lifecycleConflict(releaseId, current?.lifecycle ?? "changed", transition);
    }
    const { owner: _owner, ...row } = release;
    const changed = { ...row, ...change };
    appendEvent(tx, { type: `release-${transition.done}` as "release-restored", actor, subject: { release: changed } });
    return changed;
  });
}

function lifecycleConflict(releaseId: string, lifecycle: string, transition: Transition): DomainError {
  return new DomainError(
    "TOOL_RELEASE_LIFECYCLE_CONFLICT",
    `tool release ${releaseId} is ${lifecycle}; only ${transition.from} releases can be ${transition.done}`,
  );
}

/** Now, but never at or before `previous`: each change's stateChangedAt is strictly later than the last. */
function laterThan(previous: Date): Date {
  return new Date(Math.max(Date.now(), previous.getTime() + 1));
}
