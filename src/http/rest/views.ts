// The spec's REST resources (service.md section 2) as the routes return them. The functions that
// build them from typed GraphQL results declare these return types, so a schema change to a field
// they pass through (its type, its nullability) fails the build instead of changing a response.
import type { JsonValue } from "./graphql.js";

/** service.md 2.1 */
export interface RestGrant {
  id: string;
  environmentId: string;
  toolMiddlewareReleaseId: string;
  protected: boolean;
  automatic: boolean;
  followCoordinates: boolean;
  lifecycle: string;
  createdAt: string;
  createdBy: string;
  stateChangedAt: string;
  stateChangedBy: string;
}

/** service.md 2.3 */
export interface RestGrantedRelease {
  id: string;
  name: string;
  version: string;
  definition: JsonValue;
  metadataVersion: string;
  metadataDigest: string;
  sourceDigest: string;
}

/** service.md 2.2 */
export interface RestGrantView {
  grant: RestGrant;
  release: RestGrantedRelease;
  releaseOwner: { id: string; name: string; email: string };
}

/** service.md 2.4 */
export interface RestToolRelease {
  id: string;
  ownerAccountId: string;
  name: string;
  version: string;
  source: { kind: string; componentId: string; componentRevision: number; componentName: string };
  definition: JsonValue;
  metadataVersion: string;
  metadataDigest: string;
  immutable: boolean;
  lifecycle: string;
  origin: string;
  systemAvailability: string;
  createdAt: string;
  createdBy: string;
  stateChangedAt: string;
  stateChangedBy: string;
}
