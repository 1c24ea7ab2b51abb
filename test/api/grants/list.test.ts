// Operation 1: GET /v1/envs/{environment_id}/tool-middlewares, and GraphQL Environment.activeGrants / grants.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGrant, deleteGrant } from "../../../src/domain/grants.js";
import { depublishRelease, restoreRelease } from "../../../src/domain/releases.js";
import type { Environment, ToolRelease } from "../../../src/db/generated/sqlite/client.js";
import type { HttpResult } from "../../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type Member, type World } from "../../helpers/world.js";
import {
  byId,
  expectRestError,
  grantViewOf,
  itAnswers401WithoutValidCredentials,
  paths,
  sharedEnvironment,
  supersede,
  uniqueName,
  UNKNOWN_ID,
} from "./support.js";

describeEachDatabase("GET /v1/envs/{environment_id}/tool-middlewares: list active grants", (provider) => {
  let service: TestService;
  let world: World;
  const grant = (environment: Environment, release: ToolRelease, by: Member = world.owner) =>
    createGrant(service.db, by.account, environment.id, { release: byId(release) });
  const grantIds = (body: { values: { grant: { id: string } }[] }) => body.values.map((view) => view.grant.id);

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("answers {values: [grant views], nextCursor: null} with every active grant of the environment (200)", async () => {
    const environment = await sharedEnvironment(world);
    const first = await grant(environment, await world.publish(world.owner, uniqueName("alpha"), "1.0.0"));
    const second = await grant(environment, await world.publish(world.stranger, uniqueName("beta"), "1.0.0"), world.deployer);
    const result = await world.owner.http.get(paths.grants(environment.id));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ values: [await grantViewOf(world, first.id), await grantViewOf(world, second.id)], nextCursor: null });
    // The stored definitions are spliced in as text (src/http/rest/json-body.ts): byte for byte what JSON.stringify writes.
    expect(result.text).toBe(JSON.stringify(result.body));
  });

  it("answers {values: [], nextCursor: null} for an environment without grants", async () => {
    const environment = await sharedEnvironment(world);
    const result = await world.owner.http.get(paths.grants(environment.id));
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ values: [], nextCursor: null });
  });

  it("orders grants by release name, then version, then createdAt", async () => {
    const environment = await sharedEnvironment(world);
    const [a, b] = [uniqueName("a"), uniqueName("b")];
    const b1 = await grant(environment, await world.publish(world.owner, b, "1.0.0"));
    const a2 = await grant(environment, await world.publish(world.owner, a, "2.0.0"));
    const a1Stranger = await grant(environment, await world.publish(world.stranger, a, "1.0.0"));
    const a1Owner = await grant(environment, await world.publish(world.owner, a, "1.0.0"));
    const result = await world.owner.http.get(paths.grants(environment.id));
    expect(grantIds(result.body)).toEqual([a1Stranger.id, a1Owner.id, a2.id, b1.id]);
  });

  it("leaves out deleted grants", async () => {
    const environment = await sharedEnvironment(world);
    const kept = await grant(environment, await world.publish(world.owner, uniqueName(), "1.0.0"));
    const deleted = await grant(environment, await world.publish(world.owner, uniqueName(), "1.0.0"));
    await deleteGrant(service.db, world.owner.account, deleted.id);
    expect(grantIds((await world.owner.http.get(paths.grants(environment.id))).body)).toEqual([kept.id]);
  });

  it("leaves out grants of a de-published release until the release is restored", async () => {
    const environment = await sharedEnvironment(world);
    const release = await world.publish(world.owner, uniqueName(), "1.0.0");
    const granted = await grant(environment, release);
    await depublishRelease(service.db, world.owner.account, release.id);
    expect((await world.owner.http.get(paths.grants(environment.id))).body).toEqual({ values: [], nextCursor: null });
    await restoreRelease(service.db, world.owner.account, release.id);
    expect(grantIds((await world.owner.http.get(paths.grants(environment.id))).body)).toEqual([granted.id]);
  });

  it("keeps grants of a superseded release", async () => {
    const environment = await sharedEnvironment(world);
    const release = await world.publish(world.owner, uniqueName(), "1.0.0");
    const granted = await grant(environment, release);
    await supersede(world, release);
    expect(grantIds((await world.owner.http.get(paths.grants(environment.id))).body)).toEqual([granted.id]);
  });

  it("lets the owner, deployers, viewers and admins list", async () => {
    const environment = await sharedEnvironment(world);
    const granted = await grant(environment, await world.publish(world.owner, uniqueName(), "1.0.0"));
    for (const http of [world.owner.http, world.deployer.http, world.viewer.http, world.admin]) {
      const result = await http.get(paths.grants(environment.id));
      expect(result.status).toBe(200);
      expect(grantIds(result.body)).toEqual([granted.id]);
    }
  });

  it("pages with ?limit=&cursor=: nextCursor leads to the next page and is null on the last", async () => {
    const environment = await sharedEnvironment(world);
    const name = uniqueName("paged");
    const granted = [];
    // Created in reverse list order, so the pages cannot come out right by id or creation order alone.
    for (const version of ["1.0.4", "1.0.3", "1.0.2", "1.0.1", "1.0.0"])
      granted.unshift(await grant(environment, await world.publish(world.owner, name, version)));
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const result: HttpResult = await world.owner.http.get(`${paths.grants(environment.id)}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(result.status).toBe(200);
      pages.push(grantIds(result.body));
      expect(Object.keys(result.body).sort()).toEqual(["nextCursor", "values"]);
      cursor = result.body.nextCursor;
    } while (cursor !== null);
    expect(pages).toEqual([granted.slice(0, 2), granted.slice(2, 4), granted.slice(4)].map((page) => page.map((g) => g.id)));
  });

  it("answers a page as full grant views, in list order, with nextCursor null when everything fits", async () => {
    const environment = await sharedEnvironment(world);
    const granted = await grant(environment, await world.publish(world.owner, uniqueName(), "1.0.0"));
    const result = await world.owner.http.get(`${paths.grants(environment.id)}?limit=500`);
    expect(result.body).toEqual({ values: [await grantViewOf(world, granted.id)], nextCursor: null });
  });

  it("answers 400 REQUEST_INVALID for a limit that is not an integer from 1 to 500", async () => {
    for (const limit of ["0", "-1", "501", "abc", "1.5", ""]) {
      const result: HttpResult = await world.owner.http.get(`${paths.grants(world.environment.id)}?limit=${limit}`);
      expectRestError(result, 400, "REQUEST_INVALID");
      expect(result.body.errors).toEqual([expect.stringContaining("limit")]);
    }
  });

  it("answers 400 REQUEST_INVALID for a cursor the list did not issue, naming the query parameter", async () => {
    const result = await world.owner.http.get(`${paths.grants(world.environment.id)}?limit=2&cursor=not-a-cursor`);
    expectRestError(result, 400, "REQUEST_INVALID");
    expect(result.body.errors).toEqual(['query.cursor: "not-a-cursor" is not a cursor of this list']);
  });

  it("answers 400 REQUEST_INVALID for a malformed environment UUID in the path", async () => {
    const result = await world.owner.http.get(paths.grants("not-a-uuid"));
    expectRestError(result, 400, "REQUEST_INVALID");
    expect(result.body.errors).toEqual([expect.stringContaining("not-a-uuid")]);
  });

  it("answers 404 ENVIRONMENT_NOT_FOUND for an environment the caller cannot see", async () => {
    expectRestError(await world.stranger.http.get(paths.grants(world.environment.id)), 404, "ENVIRONMENT_NOT_FOUND");
  });

  it("answers 404 ENVIRONMENT_NOT_FOUND for an unknown environment", async () => {
    expectRestError(await world.owner.http.get(paths.grants(UNKNOWN_ID)), 404, "ENVIRONMENT_NOT_FOUND");
  });

  itAnswers401WithoutValidCredentials(
    () => world,
    "GET",
    () => paths.grants(world.environment.id),
  );

  it("GraphQL Environment.activeGrants and the grants connection give the list in the same order", async () => {
    const environment = await sharedEnvironment(world);
    const name = uniqueName();
    const second = await grant(environment, await world.publish(world.owner, name, "2.0.0"));
    const first = await grant(environment, await world.publish(world.owner, name, "1.0.0"));
    const result = await world.viewer.http.graphql(
      `query ($id: UUID!) { environment(id: $id) { activeGrants { uuid release { version } } grants(first: 1) { edges { node { uuid } } pageInfo { hasNextPage } } } }`,
      { id: environment.id },
    );
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data.environment).toEqual({
      activeGrants: [
        { uuid: first.id, release: { version: "1.0.0" } },
        { uuid: second.id, release: { version: "2.0.0" } },
      ],
      grants: { edges: [{ node: { uuid: first.id } }], pageInfo: { hasNextPage: true } },
    });
  });
});
