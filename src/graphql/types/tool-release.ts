// ToolRelease: an account's published, immutable tool middleware definition.
import type { Grant, ToolRelease } from "../../db/generated/sqlite/client.js";
import { presentedSurface, type MiddlewareDefinition, type PresentedSurface } from "../../domain/definitions/index.js";
import { releaseGrantsWhere } from "../../domain/permissions/index.js";
import { LRUCache } from "lru-cache";
import { builder } from "../builder.js";
import { serializesTo, type JsonSources } from "../json-sources.js";
import { PagedList } from "../pagination.js";
import { ReleaseLifecycle, ReleaseOrigin, SystemAvailability } from "../enums.js";
import { DefinitionSummaryType, summarizeDefinition } from "./definition-view.js";
import { GrantConnection, GrantType } from "./grant.js";

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

/**
 * Parsed definitions by metadataDigest. Equal digest means equal content, and releases never change,
 * so a parsed definition can serve every request that reads that content (read-only).
 */
const parsedDefinitions = new LRUCache<string, MiddlewareDefinition>({ max: 1000 });
/** Parsed definitions that serialize to exactly their stored text (most: see `serializesTo`). */
const serializeToStoredText = new WeakSet<MiddlewareDefinition>();

export function parsedDefinition(release: Pick<ToolRelease, "definition" | "metadataDigest">): MiddlewareDefinition {
  let definition = parsedDefinitions.get(release.metadataDigest);
  if (!definition) {
    definition = JSON.parse(release.definition) as MiddlewareDefinition;
    if (serializesTo(definition, release.definition)) serializeToStoredText.add(definition);
    parsedDefinitions.set(release.metadataDigest, definition);
  }
  return definition;
}

/** The whole parsed definition, its stored text noted for REST bodies when it serializes to it. */
function wholeDefinition(release: Pick<ToolRelease, "definition" | "metadataDigest">, sources: JsonSources): MiddlewareDefinition {
  const definition = parsedDefinition(release);
  if (serializeToStoredText.has(definition)) sources.note(definition, release.definition);
  return definition;
}

/**
 * Where the presented surface's JSON text lies in the stored text, by parsed definition; null when it
 * is not there (its serialization differs: integer-like keys). The stored text is the canonical JSON
 * of the definition, so the surface's text is a part of it, and equal digests mean equal texts.
 */
const presentedTextSpans = new WeakMap<MiddlewareDefinition, { start: number; end: number } | null>();

/**
 * The presented surface (`scope.value.presented`), its text noted for REST bodies as a slice of the
 * stored text (V8 slices without copying): the release read serialized it anew at every request.
 */
export function releasePresentedSurface(release: Pick<ToolRelease, "definition" | "metadataDigest">, sources: JsonSources): PresentedSurface {
  const definition = parsedDefinition(release);
  const presented = presentedSurface(definition);
  let span = presentedTextSpans.get(definition);
  if (span === undefined) {
    const text = JSON.stringify(presented);
    const start = release.definition.indexOf(text);
    span = start < 0 ? null : { start, end: start + text.length };
    presentedTextSpans.set(definition, span);
  }
  if (span) sources.note(presented, release.definition.slice(span.start, span.end));
  return presented;
}

/** Where a release is granted, for its owner: oldest grant first. */
const RELEASE_GRANT_PAGES = new PagedList<Grant>("Grant", [{ createdAt: "asc" }, { id: "asc" }]);

export const ToolReleaseType = builder.prismaNode("ToolRelease", {
  description: "A published, immutable tool middleware definition owned by an account.",
  id: { field: "id" },
  nullable: true,
  // Select mode: a query loads the columns its fields ask for and nothing more (exposed fields select
  // their own column), so walking grants → release → owner never reads definitions or bookkeeping.
  // The identifying columns nearly every read shows come with the type and resolve plainly: an
  // exposed field costs a selection-mapping lookup for every row it resolves on (6–9 % of the
  // nested read, bench/layers.ts).
  select: { id: true, ownerAccountId: true, name: true, version: true },
  fields: (t) => ({
    uuid: t.field({ type: "UUID", description: "The release's UUID: what `toolRelease(id:)`, `releaseId` arguments and REST take.", resolve: (release) => release.id }),
    ownerAccountId: t.field({ type: "UUID", description: "UUID of the owning account.", resolve: (release) => release.ownerAccountId }),
    owner: t.relation("owner", { description: "The owning account." }),
    name: t.string({ description: "Middleware name.", resolve: (release) => release.name }),
    version: t.string({ description: "Release version.", resolve: (release) => release.version }),
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
      select: { definition: true, metadataDigest: true },
      type: "JSON",
      description: "The presented surface of the definition (`scope.value.presented`), as in service.md 2.4.",
      resolve: (release, _args, context) => releasePresentedSurface(release, context.jsonSources),
    }),
    middlewareDefinition: t.field({
      select: { definition: true, metadataDigest: true },
      type: "JSON",
      description: "The whole middleware definition (service.md 2.5), as returned in grant views.",
      resolve: (release, _args, context) => wholeDefinition(release, context.jsonSources),
    }),
    definitionSummary: t.field({
      select: { definition: true, metadataDigest: true },
      type: DefinitionSummaryType,
      description: "Names, doc and commands of the definition as typed fields, for clients that do not want to read the JSON.",
      resolve: (release) => summarizeDefinition(parsedDefinition(release)),
    }),
    metadataVersion: t.exposeString("metadataVersion", { description: "Version of the metadata format (`0.1.0`)." }),
    metadataDigest: t.exposeString("metadataDigest", { description: "`sha256:` digest of the canonical definition." }),
    sourceDigest: t.exposeString("sourceDigest", { description: "`sha256:` digest of the source coordinates." }),
    immutable: t.exposeBoolean("immutable", { description: "Whether the content may never be superseded." }),
    lifecycle: t.field({ type: ReleaseLifecycle, description: "Lifecycle state.", select: { lifecycle: true }, resolve: (release) => release.lifecycle as never }),
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
    grants: t.connection({
      type: GrantType,
      description:
        "Where this release is granted: its active grants in environments you can see, oldest first. Only the release's owner " +
        "(and administrators) see them; for anyone else the connection is empty. Empty while the release is de-published.",
      select: (args, ctx, nestedSelection) =>
        RELEASE_GRANT_PAGES.relationSelection("grants", "Grant", args, releaseGrantsWhere(ctx.actor()), nestedSelection),
      resolve: (release, args) => RELEASE_GRANT_PAGES.relationConnection(release, "grants", args),
    }, GrantConnection),
  }),
});

/** One connection type for every list of releases (Account.toolReleases). */
export const ToolReleaseConnection = builder.connectionObject(
  { type: ToolReleaseType, name: "ToolReleaseConnection", description: "A page of tool releases, Relay style." },
  { name: "ToolReleaseEdge", description: "A tool release on a page, with its cursor." },
);
