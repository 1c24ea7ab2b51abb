// Tool releases: publication of a validated definition (used by apply, the demo seed and tests).
import type { Db } from "../db/client.js";
import type { ToolRelease } from "../db/generated/sqlite/client.js";
import {
  canonicalJson,
  metadataDigest,
  METADATA_VERSION,
  sourceDigest,
  validateDefinition,
  type ComponentSource,
  type MiddlewareDefinition,
} from "./definitions/index.js";
import { DomainError, invalidRequest } from "./errors.js";

export type ReleaseLifecycle = "published" | "de-published" | "superseded";
export type ReleaseOrigin = "ordinary" | "protected-system";
export type SystemAvailability = "grantable" | "auto-granted" | "ambient";

export const releaseNotFound = (id: string) => new DomainError("TOOL_RELEASE_NOT_FOUND", `tool release ${id} not found`);
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
