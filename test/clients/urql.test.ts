// urql with its default fetchExchange and Graphcache against a running toolgate: queries go out as
// GET (urql's default), mutations as POST; Graphcache's relayPagination merges the pages of a
// connection, every object is normalised by `__typename` and `id`, and a mutation's result shows in
// queries read from the cache. SQLite only: a client sees the same graph on either database, and
// the graph's own suites cover both.
import type { Client } from "@urql/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/service.js";
import { DELETE_GRANT, ENVIRONMENT_GRANTS, GRANT_BY_ID } from "./documents.js";
import { createClientWorld, grantUuidsInOneRequest, takeOverByHand, PAGE_SIZE, watchRequests, type ClientWorld } from "./support.js";
import { createUrqlClient } from "./urql/urql-client.js";

describe("urql (default fetchExchange, Graphcache with relayPagination)", () => {
  let service: TestService;
  let world: ClientWorld;
  let requests: ReturnType<typeof watchRequests>;

  beforeAll(async () => {
    service = await startTestService("sqlite");
    world = await createClientWorld(service);
    requests = watchRequests(`${service.url}/graphql`);
  });
  afterAll(async () => {
    requests?.restore();
    await service?.stopAndDrop();
  });

  /** A fresh client that has fetched every page of the environment's grants, as a "load more" button would. */
  async function fetchAllGrants(): Promise<{ urql: Client; read: () => any }> {
    const urql = createUrqlClient(`${service.url}/graphql`, world.owner.token);
    const variables = { environmentId: world.environment.id, first: PAGE_SIZE };
    let page = await urql.query(ENVIRONMENT_GRANTS, variables).toPromise();
    while (page.data.environment.grants.pageInfo.hasNextPage) {
      expect(page.error).toBeUndefined();
      page = await urql.query(ENVIRONMENT_GRANTS, { ...variables, after: page.data.environment.grants.pageInfo.endCursor }).toPromise();
    }
    return { urql, read: () => urql.readQuery(ENVIRONMENT_GRANTS, variables)?.data };
  }

  it("pages Environment.grants to its end with GET requests, merging the pages in the cache", async () => {
    requests.mark();
    const { read } = await fetchAllGrants();
    const grants = read().environment.grants;
    expect(grants.edges.map((edge: any) => edge.node.uuid)).toEqual(await grantUuidsInOneRequest(world));
    expect(grants.pageInfo.hasNextPage).toBe(false);
    const pages = Math.ceil(world.grants.length / PAGE_SIZE);
    expect(requests.since().filter((request) => request.operationName === "EnvironmentGrants")).toEqual(
      Array.from({ length: pages }, () => ({ method: "GET", operationName: "EnvironmentGrants" })),
    );
  });

  it("normalises each grant once, by __typename and id: another query for it updates the list", async () => {
    const { urql, read } = await fetchAllGrants();
    const listed = read().environment.grants.edges[0].node;
    expect(listed.automatic).toBe(true);
    await takeOverByHand(world, listed.uuid);

    const { data, error } = await urql.query(GRANT_BY_ID, { id: listed.id }, { requestPolicy: "network-only" }).toPromise();
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ node: { id: listed.id, automatic: false } });
    expect(read().environment.grants.edges[0].node.automatic).toBe(false);
  });

  it("shows a mutation's result in the list it holds, without fetching the list again", async () => {
    const { urql, read } = await fetchAllGrants();
    const listed = read().environment.grants.edges[1].node;
    requests.mark();

    const { error } = await urql.mutation(DELETE_GRANT, { uuid: listed.uuid }).toPromise();

    expect(error).toBeUndefined();
    expect(read().environment.grants.edges[1].node).toMatchObject({ id: listed.id, lifecycle: "DELETED" });
    expect(requests.since()).toEqual([{ method: "POST", operationName: "DeleteGrant" }]);
  });
});
