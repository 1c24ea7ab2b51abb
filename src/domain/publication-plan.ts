// The publication plan (semantics.md "Validate and apply"): what publishing each definition at its
// coordinate (environment owner, name, definition.version) would do, decided from the release
// currently holding that coordinate.
import type { Db } from "../db/client.js";
import type { Environment, ToolRelease } from "../db/generated/sqlite/client.js";
import { DomainError } from "./errors.js";
import type { CheckedPublication } from "./publication-checks.js";

export const PUBLICATION_ACTIONS = ["publish", "noChange", "supersede", "conflict"] as const;
export type PublicationAction = (typeof PUBLICATION_ACTIONS)[number];

export interface PlanEntry {
  action: PublicationAction;
  name: string;
  version: string;
  reason: string;
}

export interface PlannedPublication {
  entry: PlanEntry;
  publication: CheckedPublication;
  /** The non-superseded release at the coordinate, if any. */
  current: ToolRelease | undefined;
}

const PLAN_REASONS = {
  publish: "new release",
  noChange: "identical content is already published",
  immutableConflict: "this version already has different content; publish a new version",
  supersede: "replaces mutable content; grants that follow coordinates move to the new release",
  lifecycleConflict: "this release is de-published; restore it before publishing",
} as const;

export async function planPublications(db: Db, environment: Environment, publications: readonly CheckedPublication[]): Promise<PlannedPublication[]> {
  if (publications.length === 0) return [];
  const current = await db.toolRelease.findMany({
    where: {
      ownerAccountId: environment.ownerAccountId,
      currentCoordinate: true,
      OR: publications.map((publication) => ({ name: publication.name, version: publication.definition.version })),
    },
  });
  return publications.map((publication) => {
    const release = current.find((candidate) => candidate.name === publication.name && candidate.version === publication.definition.version);
    const { action, reason } = decide(environment, publication, release);
    return { entry: { action, name: publication.name, version: publication.definition.version, reason }, publication, current: release };
  });
}

function decide(environment: Environment, publication: CheckedPublication, current: ToolRelease | undefined): { action: PublicationAction; reason: string } {
  if (!current || current.lifecycle === "superseded") return { action: "publish", reason: PLAN_REASONS.publish };
  if (current.lifecycle !== "published") return { action: "conflict", reason: PLAN_REASONS.lifecycleConflict };
  if (current.metadataDigest === publication.metadataDigest) return { action: "noChange", reason: PLAN_REASONS.noChange };
  if (environment.versionCheck || current.immutable) return { action: "conflict", reason: PLAN_REASONS.immutableConflict };
  return { action: "supersede", reason: PLAN_REASONS.supersede };
}

/** Apply refuses a plan with any conflict; the error names the first one. */
export function assertNoConflict(plan: readonly PlannedPublication[]): void {
  const conflict = plan.find((planned) => planned.entry.action === "conflict");
  if (!conflict) return;
  const { name, version, reason } = conflict.entry;
  const code = conflict.current?.lifecycle === "de-published" ? "TOOL_RELEASE_LIFECYCLE_CONFLICT" : "TOOL_RELEASE_IMMUTABLE_CONFLICT";
  throw new DomainError(code, `cannot publish ${name} ${version}: ${reason}`);
}

/** How many releases the plan adds to the owner's published count (a supersede replaces one). */
export function newlyPublishedCount(plan: readonly PlannedPublication[]): number {
  return plan.filter((planned) => planned.entry.action === "publish").length;
}

export function publishesOrSupersedes(planned: PlannedPublication): boolean {
  return planned.entry.action === "publish" || planned.entry.action === "supersede";
}
