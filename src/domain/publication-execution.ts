// Carries out the publication step of apply inside its transaction: `publish` inserts a release,
// `supersede` retires the current one and moves the grants that follow its coordinate.
import type { Db } from "../db/client.js";
import type { Environment, ToolRelease } from "../db/generated/sqlite/client.js";
import type { Actor } from "./actor.js";
import { DomainError } from "./errors.js";
import type { PlannedPublication } from "./publication-plan.js";
import { insertRelease } from "./releases.js";
import { appendEvent, recorded } from "./events.js";

export interface PublicationOutcome {
  /** Releases inserted by publish and supersede, in plan order. */
  releases: ToolRelease[];
  /** Ids of grants moved to a superseding release. */
  movedGrantIds: string[];
}

export async function executePublications(db: Db, actor: Actor, environment: Environment, plan: readonly PlannedPublication[]): Promise<PublicationOutcome> {
  const outcome: PublicationOutcome = { releases: [], movedGrantIds: [] };
  for (const planned of plan) {
    if (planned.entry.action === "publish") {
      outcome.releases.push(await publish(db, actor, environment, planned));
    } else if (planned.entry.action === "supersede") {
      const superseded = planned.current!;
      await retire(db, actor, superseded);
      const release = await publish(db, actor, environment, planned);
      outcome.releases.push(release);
      outcome.movedGrantIds.push(...(await moveFollowingGrants(db, actor, superseded, release)));
    }
  }
  return outcome;
}

async function publish(db: Db, actor: Actor, environment: Environment, planned: PlannedPublication): Promise<ToolRelease> {
  const release = await insertRelease(db, {
    ownerAccountId: environment.ownerAccountId,
    actorId: actor.id,
    definition: planned.publication.definition,
    source: planned.publication.source!,
    immutable: environment.versionCheck,
  });
  return recorded(db, release, () => ({ type: "release-published", actor, environmentId: environment.id, subject: { release } }));
}

/**
 * published → superseded, giving up the coordinate. The lifecycle condition makes a concurrent
 * change of the same release fail here rather than be overwritten.
 */
async function retire(db: Db, actor: Actor, release: ToolRelease): Promise<void> {
  const { count } = await db.toolRelease.updateMany({
    where: { id: release.id, lifecycle: "published", currentCoordinate: true },
    data: {
      lifecycle: "superseded",
      currentCoordinate: null,
      stateChangedAt: new Date(Math.max(Date.now(), release.stateChangedAt.getTime() + 1)),
      stateChangedById: actor.id,
    },
  });
  if (count === 0) throw concurrentUpdate(release);
  appendEvent(db, { type: "release-superseded", actor, subject: { release: await db.toolRelease.findUniqueOrThrow({ where: { id: release.id } }) } });
}

/** Active grants created by coordinates move along; grants pinned by id stay on the old release. */
async function moveFollowingGrants(db: Db, actor: Actor, from: ToolRelease, to: ToolRelease): Promise<string[]> {
  const following = await db.grant.findMany({ where: { releaseId: from.id, lifecycle: "active", followCoordinates: true }, select: { id: true } });
  if (following.length === 0) return [];
  const ids = following.map((grant) => grant.id);
  await db.grant.updateMany({ where: { id: { in: ids } }, data: { releaseId: to.id } });
  for (const grant of await db.grant.findMany({
    where: { id: { in: ids } },
    include: { environment: { select: { ownerAccountId: true } } },
    orderBy: { id: "asc" },
  })) {
    const { environment, ...row } = grant;
    appendEvent(db, { type: "grant-moved", actor, accountId: environment.ownerAccountId, subject: { grant: row } });
  }
  return ids;
}

const concurrentUpdate = (release: ToolRelease) =>
  new DomainError("CONCURRENT_UPDATE", `tool release ${release.id} changed while it was being superseded; retry the request`);
