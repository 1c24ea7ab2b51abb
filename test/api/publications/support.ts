// Shared pieces of the validate/apply suites: paths, request bodies, definitions with other content,
// the GraphQL documents, a snapshot of every table, and the plan rows of semantics.md.
import { randomUUID } from "node:crypto";
import type { Environment, ToolRelease } from "../../../src/db/generated/sqlite/client.js";
import type { MiddlewareDefinition } from "../../../src/domain/definitions/index.js";
import { depublishRelease } from "../../../src/domain/releases.js";
import { definitionFor } from "../../fixtures/definitions/index.js";
import type { TestService } from "../../helpers/service.js";
import type { Member, World } from "../../helpers/world.js";
import { creationForGraphQL, sharedEnvironment, supersede } from "../grants/support.js";

export { byId, expectGraphQLError, expectRestError, grantViewOf, sharedEnvironment, uniqueName, UNKNOWN_ID } from "../grants/support.js";
export { itAnswers401WithoutValidCredentials, restReleaseOf } from "../releases/support.js";

export const paths = {
  validate: (environmentId: string) => `/v1/envs/${environmentId}/tool-middlewares/validate`,
  apply: (environmentId: string) => `/v1/envs/${environmentId}/tool-middlewares/apply`,
};

export interface Source {
  kind: string;
  componentId: string;
  componentRevision: number;
  componentName: string;
}

export const sourceFor = (name: string): Source => ({ kind: "component", componentId: randomUUID(), componentRevision: 3, componentName: `${name}-component` });

/** A publication of `definition` under its own name, with a source unless `source: null`. */
export function publication(definition: unknown, source: Source | null = sourceFor((definition as { name: string }).name)) {
  const name = (definition as { name: string }).name;
  return source ? { name, definition, source } : { name, definition };
}

export interface Body {
  publications?: unknown[];
  creations?: unknown[];
  deletions?: string[];
}

/** A validate/apply body in the spec's shape. */
export const body = ({ publications = [], creations = [], deletions = [] }: Body = {}) => ({
  grantReconciliation: { creations, deletions },
  publications,
});

/** A validate/apply body as GraphQL input: selector types as GraphQL names them. */
export const changesForGraphQL = (changes: ReturnType<typeof body>) => ({
  ...changes,
  grantReconciliation: { ...changes.grantReconciliation, creations: changes.grantReconciliation.creations.map(creationForGraphQL) },
});

/** The same middleware and version with other content (its summary). */
export function otherContent(definition: MiddlewareDefinition, summary = `Changed ${randomUUID()}`): MiddlewareDefinition {
  const copy = structuredClone(definition);
  copy.doc.summary = summary;
  return copy;
}

/** The same value with every object's keys in reverse order. */
export function reversedKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reversedKeys) as T;
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, member]) => [key, reversedKeys(member)]),
    ) as T;
  }
  return value;
}

/** Every row of every table, in id order: what "changes nothing" compares. */
export async function snapshotAllTables(service: TestService) {
  const db = service.db;
  return {
    accounts: await db.account.findMany({ orderBy: { id: "asc" } }),
    apiTokens: await db.apiToken.findMany({ orderBy: { id: "asc" } }),
    environments: await db.environment.findMany({ orderBy: { id: "asc" } }),
    environmentShares: await db.environmentShare.findMany({ orderBy: [{ environmentId: "asc" }, { accountId: "asc" }] }),
    toolReleases: await db.toolRelease.findMany({ orderBy: { id: "asc" } }),
    grants: await db.grant.findMany({ orderBy: { id: "asc" } }),
  };
}

/** Non-superseded releases at a coordinate of `owner`. */
export const currentReleasesAt = (service: TestService, owner: Member, name: string, version: string) =>
  service.db.toolRelease.findMany({ where: { ownerAccountId: owner.account.id, name, version, lifecycle: { not: "superseded" } } });

export const allReleasesAt = (service: TestService, owner: Member, name: string, version: string) =>
  service.db.toolRelease.findMany({ where: { ownerAccountId: owner.account.id, name, version }, orderBy: { createdAt: "asc" } });

const PLAN_FIELDS = "publicationPlan { action name version reason }";
export const VALIDATE = `query ($environmentId: UUID!, $input: ToolMiddlewareChangesInput!) {
  validateToolMiddlewares(environmentId: $environmentId, input: $input) { ${PLAN_FIELDS} }
}`;
export const APPLY = `mutation ($environmentId: UUID!, $input: ToolMiddlewareChangesInput!) {
  applyToolMiddlewares(environmentId: $environmentId, input: $input) {
    ${PLAN_FIELDS}
    releases { uuid name version lifecycle immutable }
    grants { uuid releaseId followCoordinates automatic lifecycle }
    deletedGrantIds
  }
}`;

export const REASONS = {
  publish: "new release",
  noChange: "identical content is already published",
  immutableConflict: "this version already has different content; publish a new version",
  supersede: "replaces mutable content; grants that follow coordinates move to the new release",
  lifecycleConflict: "this release is de-published; restore it before publishing",
} as const;

/** A row of the plan table: the release at the coordinate, and what publishing `definition` there means. */
export interface PlanRow {
  row: string;
  action: "publish" | "noChange" | "supersede" | "conflict";
  reason: string;
  /** The 409 code apply answers for a conflict. */
  conflictCode?: string;
  versionCheck: boolean;
  /** Puts the coordinate in the row's state; returns the existing release, if any. */
  arrange(world: World, name: string): Promise<ToolRelease | undefined>;
  /** The definition published by the body. */
  content(name: string): MiddlewareDefinition;
}

const VERSION = "1.0.0";

export const PLAN_ROWS: PlanRow[] = [
  {
    row: "no release at the coordinate → publish",
    action: "publish",
    reason: REASONS.publish,
    versionCheck: false,
    arrange: async () => undefined,
    content: (name) => definitionFor(name, VERSION),
  },
  {
    row: "only superseded releases at the coordinate → publish",
    action: "publish",
    reason: REASONS.publish,
    versionCheck: false,
    arrange: async (world, name) => supersede(world, await world.publish(world.owner, name, VERSION)),
    content: (name) => definitionFor(name, VERSION),
  },
  {
    row: "published with the same metadataDigest → noChange",
    action: "noChange",
    reason: REASONS.noChange,
    versionCheck: false,
    arrange: (world, name) => world.publish(world.owner, name, VERSION),
    content: (name) => definitionFor(name, VERSION),
  },
  {
    row: "published with different content in a versionCheck environment → conflict",
    action: "conflict",
    reason: REASONS.immutableConflict,
    conflictCode: "TOOL_RELEASE_IMMUTABLE_CONFLICT",
    versionCheck: true,
    // A mutable release, so that only the environment's versionCheck makes this a conflict.
    arrange: (world, name) => world.publish(world.owner, name, VERSION),
    content: (name) => otherContent(definitionFor(name, VERSION)),
  },
  {
    row: "published with different content, immutable release → conflict",
    action: "conflict",
    reason: REASONS.immutableConflict,
    conflictCode: "TOOL_RELEASE_IMMUTABLE_CONFLICT",
    versionCheck: false,
    arrange: (world, name) => world.publish(world.owner, name, VERSION, { immutable: true }),
    content: (name) => otherContent(definitionFor(name, VERSION)),
  },
  {
    row: "published with different content, mutable release → supersede",
    action: "supersede",
    reason: REASONS.supersede,
    versionCheck: false,
    arrange: (world, name) => world.publish(world.owner, name, VERSION),
    content: (name) => otherContent(definitionFor(name, VERSION)),
  },
  {
    row: "de-published release at the coordinate → conflict",
    action: "conflict",
    reason: REASONS.lifecycleConflict,
    conflictCode: "TOOL_RELEASE_LIFECYCLE_CONFLICT",
    versionCheck: false,
    arrange: async (world, name) => depublishRelease(world.service.db, world.owner.account, (await world.publish(world.owner, name, VERSION)).id),
    content: (name) => definitionFor(name, VERSION),
  },
];

/** An environment of world.owner, shared like world.environment, with the row's versionCheck. */
export const environmentFor = (world: World, row: Pick<PlanRow, "versionCheck">): Promise<Environment> =>
  row.versionCheck ? sharedEnvironment(world, { versionCheck: true }) : Promise.resolve(world.environment);
