// The floor's JSON, byte for byte what toolgate answers: members in toolgate's order, stored
// definitions spliced in as text (they are canonical JSON, which JSON.stringify reproduces).
import type { GrantSummaryRow, GrantViewRow, ReleaseRow } from "./store.js";

const s = JSON.stringify;

/**
 * The grant view, as GET /v1/environment-tool-middleware-grants/:id and the list answer
 * it, in pieces around the stored definition text (app.ts encodes pieces without joining them).
 */
export function grantViewPieces(row: GrantViewRow): string[] {
  return [
    `{"grant":{"id":${s(row.id)},"environmentId":${s(row.environmentId)},"toolMiddlewareReleaseId":${s(row.releaseId)},` +
      `"protected":${row.protected},"automatic":${row.automatic},"followCoordinates":${row.followCoordinates},"lifecycle":${s(row.lifecycle)},` +
      `"createdAt":${s(row.createdAt)},"createdBy":${s(row.createdById)},"stateChangedAt":${s(row.stateChangedAt)},"stateChangedBy":${s(row.stateChangedById)}},` +
      `"release":{"id":${s(row.releaseId)},"name":${s(row.releaseName)},"version":${s(row.releaseVersion)},"definition":`,
    row.definition,
    `,"metadataVersion":${s(row.metadataVersion)},"metadataDigest":${s(row.metadataDigest)},"sourceDigest":${s(row.sourceDigest)}},` +
      `"releaseOwner":{"id":${s(row.ownerId)},"name":${s(row.ownerName)},"email":${s(row.ownerEmail)}}}`,
  ];
}

/** An apply's answer without publications: its grants' views and the deleted ids. */
export function applyResultPieces(views: GrantViewRow[], deletedGrantIds: string[]): string[] {
  const pieces = ['{"publicationPlan":[],"releases":[],"grants":['];
  views.forEach((row, index) => {
    if (index > 0) pieces.push(",");
    pieces.push(...grantViewPieces(row));
  });
  pieces.push(`],"deletedGrantIds":${s(deletedGrantIds)}}`);
  return pieces;
}

/** Toolgate's first page when `limit` is absent (src/http/rest/paging.ts). */
const DEFAULT_PAGE_SIZE = 100;

/**
 * The grant list's first page. The benchmark's environments hold at most one page, so the floor
 * never writes a cursor (toolgate's are opaque); a larger list is refused rather than misrendered.
 */
export function grantViewListPieces(rows: GrantViewRow[]): string[] {
  if (rows.length > DEFAULT_PAGE_SIZE) throw new Error(`the floor renders one page: ${rows.length} grants are more than ${DEFAULT_PAGE_SIZE}`);
  const pieces = ['{"values":['];
  rows.forEach((row, index) => {
    if (index > 0) pieces.push(",");
    pieces.push(...grantViewPieces(row));
  });
  pieces.push('],"nextCursor":null}');
  return pieces;
}

/** The tool release: its `definition` is the presented surface, so the stored text is parsed. */
export function releaseJson(row: ReleaseRow): string {
  const presented = (JSON.parse(row.definition) as { scope: { value: { presented: unknown } } }).scope.value.presented;
  return s({
    id: row.id,
    ownerAccountId: row.ownerAccountId,
    name: row.name,
    version: row.version,
    source: { kind: row.sourceKind, componentId: row.componentId, componentRevision: row.componentRevision, componentName: row.componentName },
    definition: presented,
    metadataVersion: row.metadataVersion,
    metadataDigest: row.metadataDigest,
    immutable: row.immutable,
    lifecycle: row.lifecycle,
    origin: row.origin,
    systemAvailability: row.systemAvailability,
    createdAt: row.createdAt,
    createdBy: row.createdById,
    stateChangedAt: row.stateChangedAt,
    stateChangedBy: row.stateChangedById,
  });
}

/** The nested GraphQL read `environment { name activeGrants { uuid release { name version owner { name } } } }`. */
export function environmentGrantsJson(name: string, grants: GrantSummaryRow[]): string {
  return s({
    data: {
      environment: {
        name,
        activeGrants: grants.map((grant) => ({
          uuid: grant.id,
          release: { name: grant.releaseName, version: grant.releaseVersion, owner: { name: grant.ownerName } },
        })),
      },
    },
  });
}
