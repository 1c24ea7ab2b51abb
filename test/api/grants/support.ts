// Shared pieces of the grant API suites: paths, selectors, the expected grant view of a stored
// grant, the GraphQL documents of the grant operations, and environments set up like the world's.
import { expect } from "vitest";
import { shareEnvironment } from "../../../src/domain/environments.js";
import type { Environment, ToolRelease } from "../../../src/db/generated/sqlite/client.js";
import { definitionFor } from "../../fixtures/definitions/index.js";
import type { HttpResult } from "../../helpers/http.js";
import type { Member, World } from "../../helpers/world.js";

export { itAnswers401WithoutValidCredentials, supersede, UNKNOWN_ID } from "../releases/support.js";

export const paths = {
  grants: (environmentId: string) => `/v1/envs/${environmentId}/tool-middlewares`,
  grant: (grantId: string) => `/v1/environment-tool-middleware-grants/${grantId}`,
  restore: (grantId: string) => `/v1/environment-tool-middleware-grants/${grantId}/restore`,
};

export const byId = (release: ToolRelease) => ({ type: "ById", releaseId: release.id });
export const byCoordinates = (owner: Member, release: ToolRelease) => ({
  type: "ByCoordinates",
  account: owner.account.email,
  name: release.name,
  version: release.version,
});

/** The selector types as GraphQL names them; REST bodies use the spec's words. */
const GRAPHQL_SELECTOR_TYPES: Record<string, string> = { ById: "BY_ID", ByCoordinates: "BY_COORDINATES" };

/** A REST grant creation as GraphQL input: the same, with the selector's type named as GraphQL names it (unknown types kept). */
export function creationForGraphQL<T>(creation: T): T {
  const release = (creation as { release?: { type?: unknown } }).release;
  if (typeof release?.type !== "string" || !(release.type in GRAPHQL_SELECTOR_TYPES)) return creation;
  return { ...creation, release: { ...release, type: GRAPHQL_SELECTOR_TYPES[release.type] } };
}

let sequence = 0;
/** A middleware name no other test uses, so each rule publishes its own releases. */
export const uniqueName = (prefix = "tool") => `${prefix}-${(++sequence).toString(36)}`;

/** A new environment of `owner`, shared with world.deployer and world.viewer like world.environment. */
export async function sharedEnvironment(world: World, options: { owner?: Member; versionCheck?: boolean } = {}): Promise<Environment> {
  const environment = await world.environmentOf(options.owner ?? world.owner, { versionCheck: options.versionCheck });
  const db = world.service.db;
  await shareEnvironment(db, "system", { environmentId: environment.id, accountId: world.deployer.account.id, role: "deployer" });
  await shareEnvironment(db, "system", { environmentId: environment.id, accountId: world.viewer.account.id, role: "viewer" });
  return environment;
}

/** A grant view as docs/api.md shows it, built from the stored rows independently of the server's code. */
export async function grantViewOf(world: World, grantId: string): Promise<Record<string, unknown>> {
  const grant = await world.service.db.grant.findUniqueOrThrow({ where: { id: grantId }, include: { release: { include: { owner: true } } } });
  const { release } = grant;
  return {
    grant: {
      id: grant.id,
      environmentId: grant.environmentId,
      toolMiddlewareReleaseId: grant.releaseId,
      protected: grant.protected,
      automatic: grant.automatic,
      followCoordinates: grant.followCoordinates,
      lifecycle: grant.lifecycle,
      createdAt: grant.createdAt.toISOString(),
      createdBy: grant.createdById,
      stateChangedAt: grant.stateChangedAt.toISOString(),
      stateChangedBy: grant.stateChangedById,
    },
    release: {
      id: release.id,
      name: release.name,
      version: release.version,
      definition: definitionFor(release.name, release.version),
      metadataVersion: "0.1.0",
      metadataDigest: release.metadataDigest,
      sourceDigest: release.sourceDigest,
    },
    releaseOwner: { id: release.owner.id, name: release.owner.name, email: release.owner.email },
  };
}

export const storedGrant = (world: World, grantId: string) => world.service.db.grant.findUniqueOrThrow({ where: { id: grantId } });

const GRANT_FIELDS =
  "uuid environmentId releaseId protected automatic followCoordinates lifecycle stateChangedAt stateChangedById release { uuid owner { email } }";
export const GET_GRANT = `query ($id: UUID!) { grant(id: $id) { ${GRANT_FIELDS} } }`;
export const CREATE_GRANT = `mutation ($environmentId: UUID!, $input: CreateGrantInput!) { createGrant(environmentId: $environmentId, input: $input) { ${GRANT_FIELDS} } }`;
export const DELETE_GRANT = `mutation ($id: UUID!, $automatic: Boolean) { deleteGrant(id: $id, automatic: $automatic) { ${GRANT_FIELDS} } }`;
export const RESTORE_GRANT = `mutation ($id: UUID!) { restoreGrant(id: $id) { ${GRANT_FIELDS} } }`;

/** A REST failure in the spec's shape: `{code, error}`, or `{code, errors}` for 400. */
export function expectRestError(result: HttpResult, status: number, code: string): void {
  expect({ status: result.status, body: result.body }).toEqual({
    status,
    body: status === 400 ? { code, errors: expect.any(Array) } : { code, error: expect.any(String) },
  });
}

/** A GraphQL failure: errors (one per problem for a 400) all carrying `code`, and no data for the field. */
export function expectGraphQLError(result: HttpResult<{ data?: Record<string, unknown> | null; errors?: any[] }>, field: string, code: string): void {
  const codes = result.body.errors?.map((error) => error.extensions?.code) ?? [];
  expect(codes.length).toBeGreaterThan(0);
  expect(new Set(codes)).toEqual(new Set([code]));
  expect(result.body.data?.[field] ?? null).toBeNull();
}
