// Operation 8: GET /v1/tool-releases/{release_id}, and GraphQL `toolRelease`.
import { afterAll, beforeAll, expect, it } from "vitest";
import { metadataDigest } from "../../../src/domain/definitions/index.js";
import { depublishRelease } from "../../../src/domain/releases.js";
import type { ToolRelease } from "../../../src/db/generated/sqlite/client.js";
import { definitionFor } from "../../fixtures/definitions/index.js";
import { describeEachDatabase, type TestService } from "../../helpers/service.js";
import { startWorldWithRelease, type World } from "../../helpers/world.js";
import { errorBody, GET_RELEASE, graphQLCode, itAnswers401WithoutValidCredentials, restReleaseOf, supersede, UNKNOWN_ID } from "./support.js";
import { expectGraphQLErrorStatus } from "../../helpers/http.js";

describeEachDatabase("GET /v1/tool-releases/{release_id}: get a tool release", (provider) => {
  let service: TestService;
  let world: World;
  let release: ToolRelease;
  beforeAll(async () => ({ service, world, release } = await startWorldWithRelease(provider)));
  afterAll(() => service?.stopAndDrop());

  it("returns the tool release with every field docs/api.md lists and nothing else", async () => {
    const result = await world.owner.http.get(`/v1/tool-releases/${release.id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      id: release.id,
      ownerAccountId: world.owner.account.id,
      name: "git-lite",
      version: "2.43.0",
      source: { kind: "component", componentId: release.componentId, componentRevision: 1, componentName: "git-lite-component" },
      definition: definitionFor("git-lite", "2.43.0").scope.value.presented,
      metadataVersion: "0.1.0",
      metadataDigest: release.metadataDigest,
      immutable: true,
      lifecycle: "published",
      origin: "ordinary",
      systemAvailability: "grantable",
      createdAt: release.createdAt.toISOString(),
      createdBy: world.owner.account.id,
      stateChangedAt: release.createdAt.toISOString(),
      stateChangedBy: world.owner.account.id,
    });
  });

  it("shows the definition as the presented surface only: version, requires_filesystem, commands, schema", async () => {
    const { body } = await world.owner.http.get(`/v1/tool-releases/${release.id}`);
    expect(Object.keys(body.definition).sort()).toEqual(["commands", "requires_filesystem", "schema", "version"]);
    expect(body.definition).toEqual(definitionFor("git-lite", "2.43.0").scope.value.presented);
    expect(body.definition.commands.nodes.length).toBeGreaterThan(0);
  });

  it("writes the body byte for byte as JSON.stringify would, the presented surface taken from the stored text", async () => {
    for (let request = 0; request < 2; request++) {
      const result = await world.owner.http.get(`/v1/tool-releases/${release.id}`);
      expect(result.text).toBe(JSON.stringify(result.body));
    }
  });

  it("gives metadataVersion 0.1.0 and the sha256: digest of the whole canonical definition", async () => {
    const { body } = await world.owner.http.get(`/v1/tool-releases/${release.id}`);
    expect(body.metadataVersion).toBe("0.1.0");
    expect(body.metadataDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(body.metadataDigest).toBe(metadataDigest(definitionFor("git-lite", "2.43.0")));
  });

  it("gives timestamps as ISO 8601 UTC strings", async () => {
    const { body } = await world.owner.http.get(`/v1/tool-releases/${release.id}`);
    expect(body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(body.stateChangedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  });

  it("shows a de-published release to its owner", async () => {
    const published = await world.publish(world.owner, "depublished-get", "1.0.0");
    await depublishRelease(service.db, world.owner.account, published.id);
    const result = await world.owner.http.get(`/v1/tool-releases/${published.id}`);
    expect(result.status).toBe(200);
    expect(result.body.lifecycle).toBe("de-published");
  });

  it("shows a superseded release to its owner", async () => {
    const superseded = await supersede(world, await world.publish(world.owner, "superseded-get", "1.0.0"));
    const result = await world.owner.http.get(`/v1/tool-releases/${superseded.id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual(restReleaseOf(superseded));
    expect(result.body.lifecycle).toBe("superseded");
  });

  it("shows a protected-system release to its owner", async () => {
    const system = await world.publish(world.owner, "system-get", "1.0.0", { origin: "protected-system" });
    const result = await world.owner.http.get(`/v1/tool-releases/${system.id}`);
    expect(result.status).toBe(200);
    expect(result.body.origin).toBe("protected-system");
  });

  it("shows any account's release to an admin", async () => {
    const result = await world.admin.get(`/v1/tool-releases/${release.id}`);
    expect(result.status).toBe(200);
    expect(result.body).toEqual(restReleaseOf(release));
  });

  it("answers 404 TOOL_RELEASE_NOT_FOUND to an account that does not own the release (existence is not leaked)", async () => {
    const stranger = await world.stranger.http.get(`/v1/tool-releases/${release.id}`);
    const unknown = await world.stranger.http.get(`/v1/tool-releases/${UNKNOWN_ID}`);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual(errorBody("TOOL_RELEASE_NOT_FOUND"));
    expect(stranger.body.error).toBe(`tool release ${release.id} not found`);
    expect(unknown.body.error).toBe(`tool release ${UNKNOWN_ID} not found`);
  });

  it("answers 404 TOOL_RELEASE_NOT_FOUND to accounts sharing the owner's environment", async () => {
    for (const member of [world.deployer, world.viewer]) {
      const result = await member.http.get(`/v1/tool-releases/${release.id}`);
      expect(result.status).toBe(404);
      expect(result.body).toEqual(errorBody("TOOL_RELEASE_NOT_FOUND"));
    }
  });

  it("answers 404 TOOL_RELEASE_NOT_FOUND for an unknown release, even to an admin", async () => {
    const result = await world.admin.get(`/v1/tool-releases/${UNKNOWN_ID}`);
    expect(result.status).toBe(404);
    expect(result.body).toEqual(errorBody("TOOL_RELEASE_NOT_FOUND"));
  });

  it("answers 400 REQUEST_INVALID for a malformed UUID in the path", async () => {
    const result = await world.owner.http.get("/v1/tool-releases/not-a-uuid");
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ code: "REQUEST_INVALID", errors: [expect.stringContaining("not-a-uuid")] });
  });

  it("answers 404 NOT_FOUND for an unknown route below a release", async () => {
    const result = await world.owner.http.get(`/v1/tool-releases/${release.id}/history`);
    expect(result.status).toBe(404);
    expect(result.body).toEqual(errorBody("NOT_FOUND"));
  });

  itAnswers401WithoutValidCredentials(
    () => world,
    "GET",
    () => `/v1/tool-releases/${release.id}`,
  );

  it("GraphQL toolRelease returns the same release to its owner", async () => {
    const result = await world.owner.http.graphql(GET_RELEASE, { id: release.id });
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.toolRelease).toEqual({
      uuid: release.id,
      lifecycle: "PUBLISHED",
      stateChangedAt: release.stateChangedAt.toISOString(),
      stateChangedById: world.owner.account.id,
    });
  });

  it("GraphQL toolRelease errors with extensions.code TOOL_RELEASE_NOT_FOUND for another account", async () => {
    const result = await world.stranger.http.graphql(GET_RELEASE, { id: release.id });
    expect(result.body.data.toolRelease).toBeNull();
    expect(graphQLCode(result)).toBe("TOOL_RELEASE_NOT_FOUND");
    expectGraphQLErrorStatus(result, 404);
  });

  it("GraphQL toolRelease errors with extensions.code AUTH_UNAUTHORIZED without a token", async () => {
    const result = await world.anonymous.graphql(GET_RELEASE, { id: release.id });
    expect(graphQLCode(result)).toBe("AUTH_UNAUTHORIZED");
    expectGraphQLErrorStatus(result, 401);
  });
});
