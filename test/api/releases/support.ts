// Shared pieces of the tool release API suites: the five ways a request lacks valid credentials,
// the expected REST form of a stored release, and the GraphQL documents of the release operations.
import { expect, it } from "vitest";
import { issueToken, revokeToken } from "../../../src/domain/accounts.js";
import type { ToolRelease } from "../../../src/db/generated/sqlite/client.js";
import { client, type HttpResult } from "../../helpers/http.js";
import type { World } from "../../helpers/world.js";
import { definitionFor } from "../../fixtures/definitions/index.js";

const REJECTED_CREDENTIALS = ["no token", "a malformed Authorization header", "an unknown token", "a revoked token", "an expired token"] as const;
export type RejectedCredential = (typeof REJECTED_CREDENTIALS)[number];

export type Send = (method: string, path: string) => Promise<HttpResult>;

const credentialsByWorld = new WeakMap<World, Promise<Record<RejectedCredential, Send>>>();

/** Requests carrying each kind of invalid credential; the revoked and expired tokens belong to world.owner. */
export function rejectedCredentials(world: World): Promise<Record<RejectedCredential, Send>> {
  let credentials = credentialsByWorld.get(world);
  if (!credentials) {
    credentials = buildRejectedCredentials(world);
    credentialsByWorld.set(world, credentials);
  }
  return credentials;
}

async function buildRejectedCredentials(world: World): Promise<Record<RejectedCredential, Send>> {
  const db = world.service.db;
  const url = world.service.url;
  const revoked = await issueToken(db, "system", { accountId: world.owner.account.id, name: "revoked" });
  await revokeToken(db, world.owner.account, revoked.token.id);
  const expired = await issueToken(db, "system", { accountId: world.owner.account.id, name: "expired" });
  // issueToken refuses an expiry in the past, so the token is issued valid and then aged in place.
  await db.apiToken.update({ where: { id: expired.token.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
  const as =
    (token?: string): Send =>
    (method, path) =>
      client(url, token).request(method, path);
  return {
    "no token": as(),
    "a malformed Authorization header": (method, path) => client(url).request(method, path, undefined, { authorization: "Basic b3duZXI6c2VjcmV0" }),
    "an unknown token": as("tg_this-token-was-never-issued-by-toolgate"),
    "a revoked token": as(revoked.secret),
    "an expired token": as(expired.secret),
  };
}

/** One `it` per rejected credential: 401 AUTH_UNAUTHORIZED with a Bearer challenge. */
export function itAnswers401WithoutValidCredentials(world: () => World, method: string, path: () => string): void {
  for (const credential of REJECTED_CREDENTIALS) {
    it(`answers 401 AUTH_UNAUTHORIZED with WWW-Authenticate: Bearer for ${credential}`, async () => {
      const send = (await rejectedCredentials(world()))[credential];
      const result = await send(method, path());
      expect(result.status).toBe(401);
      expect(result.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
      expect(result.body).toEqual({ code: "AUTH_UNAUTHORIZED", error: expect.any(String) });
    });
  }
}

/** A stored release as docs/api.md shows it, built independently of the server's code. */
export function restReleaseOf(release: ToolRelease): Record<string, unknown> {
  return {
    id: release.id,
    ownerAccountId: release.ownerAccountId,
    name: release.name,
    version: release.version,
    source: { kind: "component", componentId: release.componentId, componentRevision: release.componentRevision, componentName: release.componentName },
    definition: definitionFor(release.name, release.version).scope.value.presented,
    metadataVersion: "0.1.0",
    metadataDigest: release.metadataDigest,
    immutable: release.immutable,
    lifecycle: release.lifecycle,
    origin: release.origin,
    systemAvailability: release.systemAvailability,
    createdAt: release.createdAt.toISOString(),
    createdBy: release.createdById,
    stateChangedAt: release.stateChangedAt.toISOString(),
    stateChangedBy: release.stateChangedById,
  };
}

/** The spec's error body for every status but 400. */
export const errorBody = (code: string) => ({ code, error: expect.any(String) });

const RELEASE_GRAPHQL_FIELDS = "uuid lifecycle stateChangedAt stateChangedById";
export const GET_RELEASE = `query ($id: UUID!) { toolRelease(id: $id) { ${RELEASE_GRAPHQL_FIELDS} } }`;
export const DEPUBLISH_RELEASE = `mutation ($id: UUID!) { depublishToolRelease(id: $id) { ${RELEASE_GRAPHQL_FIELDS} } }`;
export const RESTORE_RELEASE = `mutation ($id: UUID!) { restoreToolRelease(id: $id) { ${RELEASE_GRAPHQL_FIELDS} } }`;

/** The `extensions.code` of a GraphQL answer's first error. */
export const graphQLCode = (result: HttpResult<{ errors?: { extensions?: { code?: string } }[] }>) => result.body.errors?.[0]?.extensions?.code;

/** Marks a release superseded the way re-publication does (that feature is tested elsewhere). */
export function supersede(world: World, release: ToolRelease): Promise<ToolRelease> {
  return world.service.db.toolRelease.update({ where: { id: release.id }, data: { lifecycle: "superseded", currentCoordinate: null } });
}

export const UNKNOWN_ID = "0190f5c2-0000-7000-8000-000000000000";
