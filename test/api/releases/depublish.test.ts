// Operation 9: DELETE /v1/tool-releases/{release_id}, and GraphQL `depublishToolRelease`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depublishRelease } from "../../../src/domain/releases.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type World } from "../../helpers/world.js";
import { DEPUBLISH_RELEASE, errorBody, graphQLCode, itAnswers401WithoutValidCredentials, restReleaseOf, supersede, UNKNOWN_ID } from "./support.js";
import { expectGraphQLErrorStatus } from "../../helpers/http.js";

describeEachDatabase("DELETE /v1/tool-releases/{release_id}: de-publish a tool release", (provider) => {
  let service: TestService;
  let world: World;
  let version = 0;
  /** A fresh published release of world.owner for each rule. */
  const published = (options: { origin?: "ordinary" | "protected-system" } = {}) => world.publish(world.owner, "depublish-me", `1.0.${++version}`, options);
  const stored = (id: string) => service.db.toolRelease.findUniqueOrThrow({ where: { id } });

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("de-publishes a published release and returns it with lifecycle de-published (200)", async () => {
    const release = await published();
    const result = await world.owner.http.delete(`/v1/tool-releases/${release.id}`);
    expect(result.status).toBe(200);
    const after = await stored(release.id);
    expect(after.lifecycle).toBe("de-published");
    expect(result.body).toEqual(restReleaseOf(after));
    expect(result.body.lifecycle).toBe("de-published");
  });

  it("moves stateChangedAt forward and records the owner as stateChangedBy", async () => {
    const release = await published();
    const { body } = await world.owner.http.delete(`/v1/tool-releases/${release.id}`);
    expect(Date.parse(body.stateChangedAt)).toBeGreaterThan(release.stateChangedAt.getTime());
    expect(body.stateChangedBy).toBe(world.owner.account.id);
    expect(body.createdAt).toBe(release.createdAt.toISOString());
    expect(body.createdBy).toBe(world.owner.account.id);
  });

  it("records the admin as stateChangedBy when an admin de-publishes someone's release", async () => {
    const release = await published();
    const adminId = (await world.admin.graphql("{ me { uuid } }")).body.data.me.uuid;
    const result = await world.admin.delete(`/v1/tool-releases/${release.id}`);
    expect(result.status).toBe(200);
    expect(result.body.stateChangedBy).toBe(adminId);
    expect(result.body.ownerAccountId).toBe(world.owner.account.id);
  });

  it("leaves the release's grants unchanged", async () => {
    const release = await published();
    // Written directly: the grant feature has its own suites; here only "not modified" matters.
    const grant = await service.db.grant.create({
      data: { environmentId: world.environment.id, releaseId: release.id, createdById: world.owner.account.id, stateChangedById: world.owner.account.id },
    });
    expect((await world.owner.http.delete(`/v1/tool-releases/${release.id}`)).status).toBe(200);
    expect(await service.db.grant.findUniqueOrThrow({ where: { id: grant.id } })).toEqual(grant);
  });

  it("answers 409 TOOL_RELEASE_LIFECYCLE_CONFLICT for a de-published release", async () => {
    const release = await published();
    await depublishRelease(service.db, world.owner.account, release.id);
    const before = await stored(release.id);
    const result = await world.owner.http.delete(`/v1/tool-releases/${release.id}`);
    expect(result.status).toBe(409);
    expect(result.body).toEqual(errorBody("TOOL_RELEASE_LIFECYCLE_CONFLICT"));
    expect(await stored(release.id)).toEqual(before);
  });

  it("answers 409 TOOL_RELEASE_LIFECYCLE_CONFLICT for a superseded release", async () => {
    const release = await supersede(world, await published());
    const result = await world.owner.http.delete(`/v1/tool-releases/${release.id}`);
    expect(result.status).toBe(409);
    expect(result.body).toEqual(errorBody("TOOL_RELEASE_LIFECYCLE_CONFLICT"));
    expect((await stored(release.id)).lifecycle).toBe("superseded");
  });

  it("answers 403 AUTH_FORBIDDEN for a protected-system release, to its owner and to admins", async () => {
    const release = await published({ origin: "protected-system" });
    for (const http of [world.owner.http, world.admin]) {
      const result = await http.delete(`/v1/tool-releases/${release.id}`);
      expect(result.status).toBe(403);
      expect(result.body).toEqual(errorBody("AUTH_FORBIDDEN"));
    }
    expect((await stored(release.id)).lifecycle).toBe("published");
  });

  it("answers 404 TOOL_RELEASE_NOT_FOUND to an account that does not own the release (existence is not leaked)", async () => {
    const release = await published();
    for (const member of [world.stranger, world.deployer]) {
      const result = await member.http.delete(`/v1/tool-releases/${release.id}`);
      expect(result.status).toBe(404);
      expect(result.body).toEqual(errorBody("TOOL_RELEASE_NOT_FOUND"));
    }
    expect((await stored(release.id)).lifecycle).toBe("published");
  });

  it("answers 404 TOOL_RELEASE_NOT_FOUND for an unknown release", async () => {
    const result = await world.owner.http.delete(`/v1/tool-releases/${UNKNOWN_ID}`);
    expect(result.status).toBe(404);
    expect(result.body).toEqual(errorBody("TOOL_RELEASE_NOT_FOUND"));
  });

  it("answers 400 REQUEST_INVALID for a malformed UUID in the path", async () => {
    const result = await world.owner.http.delete("/v1/tool-releases/zzzz");
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ code: "REQUEST_INVALID", errors: [expect.stringContaining("zzzz")] });
  });

  it("answers 405 for a method the path does not offer (PUT)", async () => {
    const release = await published();
    const result = await world.owner.http.request("PUT", `/v1/tool-releases/${release.id}`, {});
    expect(result.status).toBe(405);
    expect(result.body).toEqual(errorBody("METHOD_NOT_ALLOWED"));
    expect(result.headers.get("allow")).toBe("GET, HEAD, DELETE, OPTIONS");
  });

  it("answers 404 NOT_FOUND for an unknown route", async () => {
    const result = await world.owner.http.delete(`/v1/tool-release/${UNKNOWN_ID}`);
    expect(result.status).toBe(404);
    expect(result.body).toEqual(errorBody("NOT_FOUND"));
  });

  itAnswers401WithoutValidCredentials(
    () => world,
    "DELETE",
    () => `/v1/tool-releases/${UNKNOWN_ID}`,
  );

  describe("through GraphQL depublishToolRelease", () => {
    it("de-publishes and returns the release", async () => {
      const release = await published();
      const result = await world.owner.http.graphql(DEPUBLISH_RELEASE, { id: release.id });
      expect(result.body.errors).toBeUndefined();
      const after = await stored(release.id);
      expect(result.body.data.depublishToolRelease).toEqual({
        uuid: release.id,
        lifecycle: "DE_PUBLISHED",
        stateChangedAt: after.stateChangedAt.toISOString(),
        stateChangedById: world.owner.account.id,
      });
    });

    it("errors with TOOL_RELEASE_LIFECYCLE_CONFLICT for a release that is not published", async () => {
      const release = await published();
      await depublishRelease(service.db, world.owner.account, release.id);
      const result = await world.owner.http.graphql(DEPUBLISH_RELEASE, { id: release.id });
      expect(graphQLCode(result)).toBe("TOOL_RELEASE_LIFECYCLE_CONFLICT");
      expectGraphQLErrorStatus(result, 409);
    });

    it("errors with AUTH_FORBIDDEN for a protected-system release", async () => {
      const release = await published({ origin: "protected-system" });
      const result = await world.owner.http.graphql(DEPUBLISH_RELEASE, { id: release.id });
      expect(graphQLCode(result)).toBe("AUTH_FORBIDDEN");
      expectGraphQLErrorStatus(result, 403);
    });

    it("errors with TOOL_RELEASE_NOT_FOUND for another account's release", async () => {
      const release = await published();
      const result = await world.stranger.http.graphql(DEPUBLISH_RELEASE, { id: release.id });
      expect(graphQLCode(result)).toBe("TOOL_RELEASE_NOT_FOUND");
      expectGraphQLErrorStatus(result, 404);
    });

    it("errors with AUTH_UNAUTHORIZED without a token", async () => {
      const release = await published();
      const result = await world.anonymous.graphql(DEPUBLISH_RELEASE, { id: release.id });
      expect(graphQLCode(result)).toBe("AUTH_UNAUTHORIZED");
      expectGraphQLErrorStatus(result, 401);
      expect((await stored(release.id)).lifecycle).toBe("published");
    });
  });
});
