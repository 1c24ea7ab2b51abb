// What the floor reads: one interface, one prepared-statement implementation per database. Rows
// come back with JSON-ready values (booleans, ISO-8601 timestamps) and the stored definition text.
import type { Steps, WriteDialect } from "./writes.js";

export interface FloorActor {
  id: string;
  admin: boolean;
}

/** A Grant row as Prisma returns it (model field order), dates as ISO text. */
export interface GrantRow {
  id: string;
  environmentId: string;
  releaseId: string;
  protected: boolean;
  automatic: boolean;
  followCoordinates: boolean;
  lifecycle: string;
  createdAt: string;
  createdById: string;
  stateChangedAt: string;
  stateChangedById: string;
}

export interface GrantViewRow extends GrantRow {
  releaseName: string;
  releaseVersion: string;
  /** The stored canonical JSON text, sent as it is. */
  definition: string;
  metadataVersion: string;
  metadataDigest: string;
  sourceDigest: string;
  ownerId: string;
  ownerName: string;
  ownerEmail: string;
}

export interface ReleaseRow {
  id: string;
  ownerAccountId: string;
  name: string;
  version: string;
  sourceKind: string;
  componentId: string;
  componentRevision: number;
  componentName: string;
  definition: string;
  metadataVersion: string;
  metadataDigest: string;
  immutable: boolean;
  lifecycle: string;
  origin: string;
  systemAvailability: string;
  createdAt: string;
  createdById: string;
  stateChangedAt: string;
  stateChangedById: string;
}

export interface GrantSummaryRow {
  id: string;
  releaseName: string;
  releaseVersion: string;
  ownerName: string;
}

/**
 * Visibility as toolgate's domain defines it: environments their owner, accounts they are shared
 * with, and administrators see; releases their owner and administrators see; listed grants are
 * active grants of published or superseded releases, by release name, version, creation, id.
 */
export interface FloorStore {
  /** The account of a live token (not revoked, not expired), by the SHA-256 hex of its secret. */
  actor(secretHash: string): Promise<FloorActor | undefined>;
  grantView(actor: FloorActor, grantId: string): Promise<GrantViewRow | undefined>;
  release(actor: FloorActor, releaseId: string): Promise<ReleaseRow | undefined>;
  /** The environment's name when the actor may see it. */
  environmentName(actor: FloorActor, environmentId: string): Promise<string | undefined>;
  activeGrantViews(environmentId: string): Promise<GrantViewRow[]>;
  activeGrantSummaries(environmentId: string): Promise<GrantSummaryRow[]>;
  /** Runs a write (bench/floor/writes.ts) in one transaction; a FloorRefusal rolls it back. */
  write<T>(steps: Steps<T>): Promise<T>;
  /** How this database binds and reads back what the writes store. */
  readonly dialect: WriteDialect;
  close(): Promise<void>;
}

/** The columns of GrantViewRow, for both SQL dialects (table and column names are Prisma's). */
export const GRANT_VIEW_COLUMNS = `
  g."id", g."environmentId", g."releaseId", g."protected", g."automatic", g."followCoordinates", g."lifecycle",
  g."createdAt", g."createdById", g."stateChangedAt", g."stateChangedById",
  r."name" AS "releaseName", r."version" AS "releaseVersion", r."definition", r."metadataVersion", r."metadataDigest", r."sourceDigest",
  o."id" AS "ownerId", o."name" AS "ownerName", o."email" AS "ownerEmail"`;

export const GRANT_JOINS = `
  FROM "Grant" g
  JOIN "ToolRelease" r ON r."id" = g."releaseId"
  JOIN "Account" o ON o."id" = r."ownerAccountId"`;

export const ACTIVE_GRANT = `g."lifecycle" = 'active' AND r."lifecycle" IN ('published', 'superseded')`;

export const GRANT_ORDER = `ORDER BY r."name", r."version", g."createdAt", g."id"`;
