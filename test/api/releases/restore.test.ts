// Operation 10: POST /v1/tool-releases/{release_id}/restore, and GraphQL `restoreToolRelease`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { depublishRelease } from "../../../src/domain/releases.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type World } from "../../helpers/world.js";
import { errorBody, graphQLCode, itAnswers401WithoutValidCredentials, restReleaseOf, RESTORE_RELEASE, supersede, UNKNOWN_ID } from "./support.js";
import { expectGraphQLErrorStatus } from "../../helpers/http.js";

describeEachDatabase("POST /v1/tool-releases/{release_id}/restore: restore a tool release", (provider) => {
  let service: TestService;
  let world: World;
  let version = 0;
  const published = (options: { origin?: "ordinary" | "protected-system" } = {}) => world.publish(world.owner, "restore-me", `1.0.${++version}`, options);
  /** A fresh release of world.owner, de-published by the owner. */
  const depublished = async () => {
    const release = await published();
    return depublishRelease(service.db, world.owner.account, release.id);
  };
  const stored = (id: string) => service.db.toolRelease.findUniqueOrThrow({ where: { id } });
  const restore = (http: World["admin"], id: string) => http.post(`/v1/tool-releases/${id}/restore`);

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("restores a de-published release and returns it with lifecycle published (200)", async () => {
    const release = await depublished();
    const result = await restore(world.owner.http, release.id);
    expect(result.status).toBe(200);
    const after = await stored(release.id);
    expect(after.lifecycle).toBe("published");
    expect(result.body).toEqual(restReleaseOf(after));
    expect(result.body.lifecycle).toBe("published");
  });

  it("moves stateChangedAt forward and records the owner as stateChangedBy", async () => {
    const release = await depublished();
    const { body } = await restore(world.owner.http, release.id);
    expect(Date.parse(body.stateChangedAt)).toBeGreaterThan(release.stateChangedAt.getTime());
    expect(body.stateChangedBy).toBe(world.owner.account.id);
  });

  it("records the admin as stateChangedBy when an admin restores someone's release", async () => {
    const release = await depublished();
    const adminId = (await world.admin.graphql("{ me { uuid } }")).body.data.me.uuid;
    const result = await restore(world.admin, release.id);
    expect(result.status).toBe(200);
    expect(result.body.stateChangedBy).toBe(adminId);
    expect(result.body.ownerAccountId).toBe(world.owner.account.id);
  });

  it("leaves the release's grants unchanged", async () => {
    const release = await depublished();
    // Written directly: the grant feature has its own suites; here only "not modified" matters.
    const grant = await service.db.grant.create({
      data: { environmentId: world.environment.id, releaseId: release.id, createdById: world.owner.account.id, stateChangedById: world.owner.account.id },
    });
    expect((await restore(world.owner.http, release.id)).status).toBe(200);
    expect(await service.db.grant.findUniqueOrThrow({ where: { id: grant.id } })).toEqual(grant);
  });

  it("answers 409 TOOL_RELEASE_LIFECYCLE_CONFLICT for a published release", async () => {
    const release = await published();
    const result = await restore(world.owner.http, release.id);
    expect(result.status).toBe(409);
    expect(result.body).toEqual(errorBody("TOOL_RELEASE_LIFECYCLE_CONFLICT"));
    expect(await stored(release.id)).toEqual(release);
  });

  it("answers 409 TOOL_RELEASE_LIFECYCLE_CONFLICT for a superseded release", async () => {
    const release = await supersede(world, await published());
    const result = await restore(world.owner.http, release.id);
    expect(result.status).toBe(409);
    expect(result.body).toEqual(errorBody("TOOL_RELEASE_LIFECYCLE_CONFLICT"));
    expect((await stored(release.id)).lifecycle).toBe("superseded");
  });

  it("answers 403 AUTH_FORBIDDEN for a protected-system release, to its owner and to admins", async () => {
    const system = await published({ origin: "protected-system" });
    // The API never de-publishes system releases, so the system's own de-publication is written directly.
    await service.db.toolRelease.update({ where: { id: system.id }, data: { lifecycle: "de-published" } });
    for (const http of [world.owner.http, world.admin]) {
      const result = await restore(http, system.id);
      expect(result.status).toBe(403);
      expect(result.body).toEqual(errorBody("AUTH_FORBIDDEN"));
    }
    expect((await stored(system.id)).lifecycle).toBe("de-published");
  });

  it("answers 422 LIMIT_EXCEEDED when the restore would exceed the plan's published releases per account", async () => {
    const free = await world.member({ plan: "free" });
    const releases = [];
    for (let index = 0; index < 50; index += 1) releases.push(await world.publish(free, "limited", `1.0.${index}`));
    const first = await free.http.delete(`/v1/tool-releases/${releases[0]!.id}`);
    expect(first.status).toBe(200);
    await world.publish(free, "limited", "2.0.0");
    const result = await restore(free.http, releases[0]!.id);
    expect(result.status).toBe(422);
    expect(result.body).toEqual(errorBody("LIMIT_EXCEEDED"));
    expect(result.body.error).toContain("50");
    expect((await stored(releases[0]!.id)).lifecycle).toBe("de-published");
  });

  it("restores up to exactly the plan's limit", async () => {
    const free = await world.member({ plan: "free" });
    const releases = [];
    for (let index = 0; index < 50; index += 1) releases.push(await world.publish(free, "at-limit", `1.0.${index}`));
    expect((await free.http.delete(`/v1/tool-releases/${releases[7]!.id}`)).status).toBe(200);
    const result = await restore(free.http, releases[7]!.id);
    expect(result.status).toBe(200);
    expect(await service.db.toolRelease.count({ where: { ownerAccountId: free.account.id, lifecycle: "published" } })).toBe(50);
  });

  it("answers 404 TOOL_RELEASE_NOT_FOUND to an account that does not own the release (existence is not leaked)", async () => {
    const release = await depublished();
    for (const member of [world.stranger, world.deployer]) {
      const result = await restore(member.http, release.id);
      expect(result.status).toBe(404);
      expect(result.body).toEqual(errorBody("TOOL_RELEASE_NOT_FOUND"));
    }
    expect((await stored(release.id)).lifecycle).toBe("de-published");
  });

  it("answers 404 TOOL_RELEASE_NOT_FOUND for an unknown release", async () => {
    const result = await restore(world.owner.http, UNKNOWN_ID);
    expect(result.status).toBe(404);
    expect(result.body).toEqual(errorBody("TOOL_RELEASE_NOT_FOUND"));
  });

  it("answers 400 REQUEST_INVALID for a malformed UUID in the path", async () => {
    const result = await world.owner.http.post("/v1/tool-releases/1234-abcd/restore");
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ code: "REQUEST_INVALID", errors: [expect.stringContaining("1234-abcd")] });
  });

  it("answers 405 for a method the path does not offer (GET)", async () => {
    const release = await depublished();
    const result = await world.owner.http.get(`/v1/tool-releases/${release.id}/restore`);
    expect(result.status).toBe(405);
    expect(result.body).toEqual(errorBody("METHOD_NOT_ALLOWED"));
    expect(result.headers.get("allow")).toBe("POST, OPTIONS");
  });

  it("answers 404 NOT_FOUND for an unknown route", async () => {
    const result = await world.owner.http.post(`/v1/tool-releases/${UNKNOWN_ID}/republish`);
    expect(result.status).toBe(404);
    expect(result.body).toEqual(errorBody("NOT_FOUND"));
  });

  itAnswers401WithoutValidCredentials(
    () => world,
    "POST",
    () => `/v1/tool-releases/${UNKNOWN_ID}/restore`,
  );

  describe("through GraphQL restoreToolRelease", () => {
    it("restores and returns the release", async () => {
      const release = await depublished();
      const result = await world.owner.http.graphql(RESTORE_RELEASE, { id: release.id });
      expect(result.body.errors).toBeUndefined();
      const after = await stored(release.id);
      expect(result.body.data.restoreToolRelease).toEqual({
        uuid: release.id,
        lifecycle: "PUBLISHED",
        stateChangedAt: after.stateChangedAt.toISOString(),
        stateChangedById: world.owner.account.id,
      });
    });

    it("errors with TOOL_RELEASE_LIFECYCLE_CONFLICT for a release that is not de-published", async () => {
      const release = await published();
      const result = await world.owner.http.graphql(RESTORE_RELEASE, { id: release.id });
      expect(graphQLCode(result)).toBe("TOOL_RELEASE_LIFECYCLE_CONFLICT");
      expectGraphQLErrorStatus(result, 409);
    });

    it("errors with AUTH_FORBIDDEN for a protected-system release", async () => {
      const system = await published({ origin: "protected-system" });
      await service.db.toolRelease.update({ where: { id: system.id }, data: { lifecycle: "de-published" } });
      const result = await world.owner.http.graphql(RESTORE_RELEASE, { id: system.id });
      expect(graphQLCode(result)).toBe("AUTH_FORBIDDEN");
      expectGraphQLErrorStatus(result, 403);
    });

    it("errors with LIMIT_EXCEEDED over the plan's published releases per account", async () => {
      const free = await world.member({ plan: "free" });
      const releases = [];
      for (let index = 0; index < 50; index += 1) releases.push(await world.publish(free, "graphql-limited", `1.0.${index}`));
      await depublishRelease(service.db, free.account, releases[0]!.id);
      await world.publish(free, "graphql-limited", "2.0.0");
      const result = await free.http.graphql(RESTORE_RELEASE, { id: releases[0]!.id });
      expect(graphQLCode(result)).toBe("LIMIT_EXCEEDED");
      expectGraphQLErrorStatus(result, 422);
    });

    it("errors with TOOL_RELEASE_NOT_FOUND for another account's release", async () => {
      const release = await depublished();
      const result = await world.stranger.http.graphql(RESTORE_RELEASE, { id: release.id });
      expect(graphQLCode(result)).toBe("TOOL_RELEASE_NOT_FOUND");
      expectGraphQLErrorStatus(result, 404);
    });

    it("errors with AUTH_UNAUTHORIZED without a token", async () => {
      const release = await depublished();
      const result = await world.anonymous.graphql(RESTORE_RELEASE, { id: release.id });
      expect(graphQLCode(result)).toBe("AUTH_UNAUTHORIZED");
      expectGraphQLErrorStatus(result, 401);
    });
  });
});
