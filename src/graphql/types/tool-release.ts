// ToolRelease: an account's published, immutable tool middleware definition.
import { builder } from "../builder.js";
import { ReleaseLifecycle, ReleaseOrigin, SystemAvailability } from "../enums.js";

export interface ReleaseSource {
  kind: string;
  componentId: string;
  componentRevision: number;
  componentName: string;
}

export const ReleaseSourceType = builder.objectRef<ReleaseSource>("ReleaseSource").implement({
  description: "Where a release's implementation comes from.",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "Source kind; `component` is the only kind." }),
    componentId: t.expose("componentId", { type: "UUID", description: "Component UUID." }),
    componentRevision: t.exposeInt("componentRevision", { description: "Component revision." }),
    componentName: t.exposeString("componentName", { description: "Component name." }),
  }),
});

export function parseDefinition(definition: string): { scope?: { value?: { presented?: unknown } } } {
  return JSON.parse(definition) as { scope?: { value?: { presented?: unknown } } };
}

export const ToolReleaseType = builder.prismaNode("ToolRelease", {
  description: "A published, immutable tool middleware definition owned by an account.",
  id: { field: "id" },
  fields: (t) => ({
    id: t.expose("id", { type: "UUID", description: "The release's UUID." }),
    ownerAccountId: t.expose("ownerAccountId", { type: "UUID", description: "UUID of the owning account." }),
    owner: t.relation("owner", { description: "The owning account." }),
    name: t.exposeString("name", { description: "Middleware name." }),
    version: t.exposeString("version", { description: "Release version." }),
    source: t.field({
      type: ReleaseSourceType,
      description: "The component the release was built from.",
      resolve: (release) => ({
        kind: release.sourceKind,
        componentId: release.componentId,
        componentRevision: release.componentRevision,
        componentName: release.componentName,
      }),
    }),
    definition: t.field({
      type: "JSON",
      description: "The presented surface of the definition (`scope.value.presented`), as in service.md 2.4.",
      resolve: (release) => parseDefinition(release.definition).scope?.value?.presented ?? null,
    }),
    middlewareDefinition: t.field({
      type: "JSON",
      description: "The whole middleware definition (service.md 2.5), as returned in grant views.",
      resolve: (release) => JSON.parse(release.definition) as unknown,
    }),
    metadataVersion: t.exposeString("metadataVersion", { description: "Version of the metadata format (`0.1.0`)." }),
    metadataDigest: t.exposeString("metadataDigest", { description: "`sha256:` digest of the canonical definition." }),
    sourceDigest: t.exposeString("sourceDigest", { description: "`sha256:` digest of the source coordinates." }),
    immutable: t.exposeBoolean("immutable", { description: "Whether the content may never be superseded." }),
    lifecycle: t.field({ type: ReleaseLifecycle, description: "Lifecycle state.", resolve: (release) => release.lifecycle as never }),
    origin: t.field({ type: ReleaseOrigin, description: "Who published it.", resolve: (release) => release.origin as never }),
    systemAvailability: t.field({
      type: SystemAvailability,
      description: "How environments get it.",
      resolve: (release) => release.systemAvailability as never,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was published." }),
    createdById: t.expose("createdById", { type: "UUID", description: "UUID of the account that published it." }),
    stateChangedAt: t.expose("stateChangedAt", { type: "DateTime", description: "When its lifecycle last changed." }),
    stateChangedById: t.expose("stateChangedById", { type: "UUID", description: "UUID of the account that last changed its lifecycle." }),
  }),
});
