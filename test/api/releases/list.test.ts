// Operation 7: GET /v1/accounts/{account_id}/tool-releases, and GraphQL `Account.toolReleaseList`.
import { afterAll, beforeAll, expect, it } from "vitest";
import { depublishRelease } from "../../../src/domain/releases.js";
import type { ToolRelease } from "../../../src/db/generated/sqlite/client.js";
import type { HttpResult } from "../../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type Member, type World } from "../../helpers/world.js";
import { errorBody, graphQLCode, itAnswers401WithoutValidCredentials, restReleaseOf, supersede, UNKNOWN_ID } from "./support.js";

describeEachDatabase("GET /v1/accounts/{account_id}/tool-releases: list tool releases of an account", (provider) => {
  let service: TestService;
  let world: World;
  let publisher: Member;
  /** The publisher's releases in the order the list must show them. */
  let expectedOrder: ToolRelease[];
  const listOf = (member: Member, query = "") => member.http.get(`/v1/accounts/${member.account.id}/tool-releases${query}`);
  const idsOf = (values: { id: string }[]) => values.map((value) => value.id);
  const current = (release: ToolRelease) => service.db.toolRelease.findUniqueOrThrow({ where: { id: release.id } });

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    publisher = await world.member();
    // Published out of order on purpose; "alpha" 1.5.0 exists twice: superseded first, then current.
    const beta = await world.publish(publisher, "beta", "1.0.0");
    const alpha2 = await world.publish(publisher, "alpha", "2.0.0");
    const gamma = await world.publish(publisher, "gamma", "1.0.0");
    const alpha15old = await supersede(world, await world.publish(publisher, "alpha", "1.5.0"));
    const alpha15 = await world.publish(publisher, "alpha", "1.5.0");
    const alpha1 = await world.publish(publisher, "alpha", "1.0.0");
    await depublishRelease(service.db, publisher.account, gamma.id);
    await world.publish(world.stranger, "alpha", "1.0.0");
    expectedOrder = await Promise.all([alpha1, alpha15old, alpha15, alpha2, beta, gamma].map(current));
  });
  afterAll(() => service?.stopAndDrop());

  it("returns {values: [...], nextCursor: null} holding each release in the tool release shape", async () => {
    const result = await listOf(publisher);
    expect(result.status).toBe(200);
    expect(Object.keys(result.body)).toEqual(["values", "nextCursor"]);
    expect(result.body.values).toEqual(expectedOrder.map(restReleaseOf));
    expect(result.body.nextCursor).toBeNull();
  });

  it("orders releases by name, then version, then createdAt", async () => {
    const { body } = await listOf(publisher);
    expect(body.values.map((value: { name: string; version: string }) => `${value.name}@${value.version}`)).toEqual([
      "alpha@1.0.0",
      "alpha@1.5.0",
      "alpha@1.5.0",
      "alpha@2.0.0",
      "beta@1.0.0",
      "gamma@1.0.0",
    ]);
    expect(body.values[1].lifecycle).toBe("superseded");
    expect(body.values[2].lifecycle).toBe("published");
  });

  it("lists every lifecycle, de-published and superseded included, when no lifecycle is given", async () => {
    const { body } = await listOf(publisher);
    expect(new Set(body.values.map((value: { lifecycle: string }) => value.lifecycle))).toEqual(new Set(["published", "de-published", "superseded"]));
  });

  it("filters by ?lifecycle=published, de-published or superseded", async () => {
    for (const lifecycle of ["published", "de-published", "superseded"]) {
      const result = await listOf(publisher, `?lifecycle=${lifecycle}`);
      expect(result.status).toBe(200);
      expect(idsOf(result.body.values)).toEqual(idsOf(expectedOrder.filter((release) => release.lifecycle === lifecycle)));
      expect(result.body.values.length).toBeGreaterThan(0);
    }
  });

  it("filters by ?name= (exact name), alone or with a lifecycle", async () => {
    const alpha = await listOf(publisher, "?name=alpha");
    expect(idsOf(alpha.body.values)).toEqual(idsOf(expectedOrder.filter((release) => release.name === "alpha")));
    const publishedAlpha = await listOf(publisher, "?name=alpha&lifecycle=published");
    expect(idsOf(publishedAlpha.body.values)).toEqual(idsOf(expectedOrder.filter((release) => release.name === "alpha" && release.lifecycle === "published")));
    const prefix = await listOf(publisher, "?name=alp");
    expect(prefix.body).toEqual({ values: [], nextCursor: null });
  });

  it("pages with ?limit=&cursor=: nextCursor leads to the next page and is null on the last", async () => {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const result: HttpResult = await listOf(publisher, `?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(result.status).toBe(200);
      expect(Object.keys(result.body)).toEqual(["values", "nextCursor"]);
      pages.push(idsOf(result.body.values));
      cursor = result.body.nextCursor;
    } while (cursor !== null);
    expect(pages).toEqual([idsOf(expectedOrder.slice(0, 4)), idsOf(expectedOrder.slice(4))]);
  });

  it("pages within the filters: a cursor continues the filtered list", async () => {
    const first = await listOf(publisher, "?name=alpha&limit=2");
    const rest = await listOf(publisher, `?name=alpha&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    const alpha = expectedOrder.filter((release) => release.name === "alpha");
    expect(idsOf(first.body.values)).toEqual(idsOf(alpha.slice(0, 2)));
    expect(rest.body).toEqual({ values: alpha.slice(2).map(restReleaseOf), nextCursor: null });
  });

  it("answers 400 REQUEST_INVALID for a limit that is not an integer from 1 to 500", async () => {
    for (const limit of ["0", "-1", "501", "abc", "1.5", ""]) {
      const result = await listOf(publisher, `?limit=${limit}`);
      expect(result.status).toBe(400);
      expect(result.body).toEqual({ code: "REQUEST_INVALID", errors: [expect.stringContaining("query.limit")] });
    }
    expect((await listOf(publisher, "?limit=500")).status).toBe(200);
  });

  it("answers 400 REQUEST_INVALID for an empty cursor or one the list did not issue", async () => {
    const empty = await listOf(publisher, "?cursor=");
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ code: "REQUEST_INVALID", errors: [expect.stringContaining("query.cursor")] });
    const forged = await listOf(publisher, "?cursor=not-a-cursor");
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe("REQUEST_INVALID");
  });

  it("lists only the account's own releases", async () => {
    const { body } = await listOf(publisher);
    expect(body.values.every((value: { ownerAccountId: string }) => value.ownerAccountId === publisher.account.id)).toBe(true);
  });

  it("returns {values: [], nextCursor: null} for an account without releases", async () => {
    const result = await listOf(world.viewer);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ values: [], nextCursor: null });
  });

  it("lets an admin list any account's releases", async () => {
    const result = await world.admin.get(`/v1/accounts/${publisher.account.id}/tool-releases`);
    expect(result.status).toBe(200);
    expect(idsOf(result.body.values)).toEqual(idsOf(expectedOrder));
  });

  it("answers 404 ACCOUNT_NOT_FOUND to another account (existence is not leaked)", async () => {
    const other = await world.stranger.http.get(`/v1/accounts/${publisher.account.id}/tool-releases`);
    const unknown = await world.stranger.http.get(`/v1/accounts/${UNKNOWN_ID}/tool-releases`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(errorBody("ACCOUNT_NOT_FOUND"));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(errorBody("ACCOUNT_NOT_FOUND"));
  });

  it("answers 404 ACCOUNT_NOT_FOUND for an unknown account, even to an admin", async () => {
    const result = await world.admin.get(`/v1/accounts/${UNKNOWN_ID}/tool-releases`);
    expect(result.status).toBe(404);
    expect(result.body).toEqual(errorBody("ACCOUNT_NOT_FOUND"));
  });

  it("answers 400 REQUEST_INVALID for an unknown ?lifecycle= value", async () => {
    for (const lifecycle of ["deleted", "PUBLISHED", "de_published"]) {
      const result = await listOf(publisher, `?lifecycle=${lifecycle}`);
      expect(result.status).toBe(400);
      expect(result.body).toEqual({ code: "REQUEST_INVALID", errors: [expect.stringContaining(`"${lifecycle}"`)] });
    }
  });

  it("answers 400 REQUEST_INVALID for an empty ?name=", async () => {
    const result = await listOf(publisher, "?name=");
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ code: "REQUEST_INVALID", errors: [expect.stringContaining("query.name")] });
  });

  it("answers 400 REQUEST_INVALID listing every problem of the query at once", async () => {
    const result = await listOf(publisher, "?lifecycle=gone&name=");
    expect(result.status).toBe(400);
    expect(result.body.errors).toHaveLength(2);
  });

  it("answers 400 REQUEST_INVALID for a malformed account UUID in the path", async () => {
    const result = await world.owner.http.get("/v1/accounts/12345/tool-releases");
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ code: "REQUEST_INVALID", errors: [expect.stringContaining("12345")] });
  });

  it("answers 405 for a method the path does not offer", async () => {
    const result = await publisher.http.post(`/v1/accounts/${publisher.account.id}/tool-releases`, {});
    expect(result.status).toBe(405);
    expect(result.body).toEqual(errorBody("METHOD_NOT_ALLOWED"));
  });

  itAnswers401WithoutValidCredentials(
    () => world,
    "GET",
    () => `/v1/accounts/${world.owner.account.id}/tool-releases`,
  );

  it("GraphQL Account.toolReleaseList returns the same list with the same filters", async () => {
    const result = await publisher.http.graphql(
      `query ($id: UUID!) { account(id: $id) { toolReleaseList(lifecycle: PUBLISHED, name: "alpha") { uuid lifecycle } } }`,
      { id: publisher.account.id },
    );
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.account.toolReleaseList).toEqual(
      expectedOrder
        .filter((release) => release.name === "alpha" && release.lifecycle === "published")
        .map((release) => ({ uuid: release.id, lifecycle: "PUBLISHED" })),
    );
  });

  it("GraphQL Account.toolReleaseList errors with ACCOUNT_NOT_FOUND when reached from another account", async () => {
    // The deployer sees the shared environment, and through it the owner's Account, but not its releases.
    await world.publish(world.owner, "owner-only", "1.0.0");
    const result = await world.deployer.http.graphql(`query ($id: UUID!) { environment(id: $id) { owner { uuid toolReleaseList { uuid } } } }`, {
      id: world.environment.id,
    });
    expect(graphQLCode(result)).toBe("ACCOUNT_NOT_FOUND");
    expect(result.body.data ?? null).toBeNull();
    expect(result.status).toBe(404);
  });
});
