// ToolRelease: an account's published, immutable tool middleware definition.
import type { Grant } from "../../db/generated/sqlite/client.js";
import { releaseGrantsWhere } from "../../domain/permissions/index.js";
import { builder } from "../builder.js";
import { ownProperty } from "../own-property.js";
import { PagedList } from "../pagination.js";
import { mapMaybePromise, releaseDefinition, releasePresentedSurface, wholeDefinition } from "../stored-definitions.js";
import { ReleaseLifecycle, ReleaseOrigin, SystemAvailability } from "../enums.js";
import { DefinitionSummaryType, summarizeDefinition } from "./definition-view.js";
import { GrantConnection, GrantType } from "./grant.js";

interface ReleaseSource {
  kind: string;
  componentId: string;
  componentRevision: number;
  componentName: string;
}

const ReleaseSourceType = builder.objectRef<ReleaseSource>("ReleaseSource").implement({
  description: "Where a release's implementation comes from.",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "Source kind; `component` is the only kind." }),
    componentId: t.expose("componentId", { type: "UUID", description: "Component UUID." }),
    componentRevision: t.exposeInt("componentRevision", { description: "Component revision." }),
    componentName: t.exposeString("componentName", { description: "Component name." }),
  }),
});

/** Where a release is granted, for its owner: oldest grant first. */
const RELEASE_GRANT_PAGES = new PagedList<Grant>("Grant", [{ createdAt: "asc" }, { id: "asc" }]);

export const ToolReleaseType = builder.prismaNode("ToolRelease", {
  description: "A published, immutable tool middleware definition owned by an account.",
  id: { field: "id" },
  nullable: true,
  // Select mode: a query loads the columns its fields ask for and nothing more (exposed fields select
  // their own column), so walking grants → release → owner never reads definitions or bookkeeping.
  // The id, name and version nearly every read shows come with the type; every other column only
  // when a field asks for it, since each one a nested read carries costs the database its JSON and
  // the server its parsing (a grant's environmentId and releaseId and its release's ownerAccountId
  // were a third of the nested read's row). A field's own column is answered from the row, without a
  // selection-mapping lookup (loaded-fields.ts).
  select: { id: true, name: true, version: true },
  fields: (t) => ({
    uuid: t.field({
      type: "UUID",
      description: "The release's UUID: what `toolRelease(id:)`, `releaseId` arguments and REST take.",
      resolve: (release) => release.id,
    }),
    ownerAccountId: t.field({
      type: "UUID",
      description: "UUID of the owning account.",
      select: { ownerAccountId: true },
      resolve: (release) => release.ownerAccountId,
    }),
    owner: t.relation("owner", { description: "The owning account." }),
    name: t.string({ description: "Middleware name.", resolve: ownProperty("name") }),
    version: t.string({ description: "Release version.", resolve: ownProperty("version") }),
    source: t.field({
      type: ReleaseSourceType,
      description: "The component the release was built from.",
      select: { sourceKind: true, componentId: true, componentRevision: true, componentName: true },
      resolve: (release) => ({
        kind: release.sourceKind,
        componentId: release.componentId,
        componentRevision: release.componentRevision,
        componentName: release.componentName,
      }),
    }),
    definition: t.field({
      select: { metadataDigest: true },
      type: "JSON",
      description: "The presented surface of the definition (`scope.value.presented`), as REST shows a release's `definition`.",
      resolve: (release, _args, context) => releasePresentedSurface(release, context),
    }),
    middlewareDefinition: t.field({
      select: { metadataDigest: true },
      type: "JSON",
      description: "The whole middleware definition, as returned in grant views.",
      resolve: (release, _args, context) => wholeDefinition(release, context),
    }),
    definitionSummary: t.field({
      select: { metadataDigest: true },
      type: DefinitionSummaryType,
      description: "Names, doc and commands of the definition as typed fields, for clients that do not want to read the JSON.",
      resolve: (release, _args, context) => mapMaybePromise(releaseDefinition(release, context), summarizeDefinition),
    }),
    metadataVersion: t.exposeString("metadataVersion", { description: "Version of the metadata format (`0.1.0`)." }),
    metadataDigest: t.exposeString("metadataDigest", { description: "`sha256:` digest of the canonical definition." }),
    sourceDigest: t.exposeString("sourceDigest", { description: "`sha256:` digest of the source coordinates." }),
    immutable: t.exposeBoolean("immutable", { description: "Whether the content may never be superseded." }),
    lifecycle: t.field({
      type: ReleaseLifecycle,
      description: "Lifecycle state.",
      select: { lifecycle: true },
      resolve: (release) => release.lifecycle as never,
    }),
    origin: t.field({ type: ReleaseOrigin, description: "Who published it.", select: { origin: true }, resolve: (release) => release.origin as never }),
    systemAvailability: t.field({
      type: SystemAvailability,
      description: "How environments get it.",
      select: { systemAvailability: true },
      resolve: (release) => release.systemAvailability as never,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was published." }),
    createdById: t.expose("createdById", { type: "UUID", description: "UUID of the account that published it." }),
    stateChangedAt: t.expose("stateChangedAt", { type: "DateTime", description: "When its lifecycle last changed." }),
    stateChangedById: t.expose("stateChangedById", { type: "UUID", description: "UUID of the account that last changed its lifecycle." }),
    grants: t.connection(
      {
        type: GrantType,
        description:
          "Where this release is granted: its active grants in environments you can see, oldest first. Only the release's owner " +
          "(and administrators) see them; for anyone else the connection is empty. Empty while the release is de-published.",
        select: (args, ctx, nestedSelection) =>
          RELEASE_GRANT_PAGES.relationSelection("grants", "Grant", args, releaseGrantsWhere(ctx.actor()), nestedSelection),
        resolve: (release, args) => RELEASE_GRANT_PAGES.relationConnection(release, "grants", args),
      },
      GrantConnection,
    ),
  }),
});

/** One connection type for every list of releases (Account.toolReleases). */
export const ToolReleaseConnection = builder.connectionObject(
  { type: ToolReleaseType, name: "ToolReleaseConnection", description: "A page of tool releases, Relay style." },
  { name: "ToolReleaseEdge", description: "A tool release on a page, with its cursor." },
);
