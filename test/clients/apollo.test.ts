// Apollo Client with its default HttpLink and InMemoryCache against a running toolgate: it pages a
// connection to its end with relayStylePagination, normalises every object by `__typename` and `id`,
// and shows a mutation's result in queries it already holds without fetching them again. SQLite
// only: a client sees the same graph on either database, and the graph's own suites cover both.
import type { ApolloClient } from "@apollo/client";
import { filter, firstValueFrom, from, type Subscription } from "rxjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/service.js";
import { createApolloClient } from "./apollo/apollo-client.js";
import { DELETE_GRANT, ENVIRONMENT_GRANTS, GRANT_BY_ID } from "./documents.js";
import { createClientWorld, grantUuidsInOneRequest, takeOverByHand, PAGE_SIZE, watchRequests, type ClientWorld } from "./support.js";

describe("Apollo Client (default HttpLink and InMemoryCache, relayStylePagination)", () => {
  let service: TestService;
  let world: ClientWorld;
  let requests: ReturnType<typeof watchRequests>;
  const watching: Subscription[] = [];

  beforeAll(async () => {
    service = await startTestService("sqlite");
    world = await createClientWorld(service);
    requests = watchRequests(`${service.url}/graphql`);
  });
  afterAll(async () => {
    for (const subscription of watching) subscription.unsubscribe();
    requests?.restore();
    await service?.stopAndDrop();
  });

  /**
   * A fresh client watching the environment's grants, as useQuery would, with every page fetched
   * through fetchMore; `read` answers the query from the cache, where relayStylePagination merged them.
   */
  async function watchAllGrants(): Promise<{ apollo: ApolloClient; read: () => any }> {
    const apollo = createApolloClient(`${service.url}/graphql`, world.owner.token);
    const variables = { environmentId: world.environment.id, first: PAGE_SIZE };
    const grants = apollo.watchQuery({ query: ENVIRONMENT_GRANTS, variables });
    watching.push(grants.subscribe(() => {}));
    const first = await firstValueFrom(from(grants).pipe(filter((result) => result.dataState === "complete")));
    let pageInfo = (first.data as any).environment.grants.pageInfo;
    while (pageInfo.hasNextPage) {
      const next = await grants.fetchMore({ variables: { after: pageInfo.endCursor } });
      pageInfo = (next.data as any).environment.grants.pageInfo;
    }
    return { apollo, read: () => apollo.readQuery({ query: ENVIRONMENT_GRANTS, variables }) };
  }

  it("pages Environment.grants to its end with fetchMore, merging the pages in the cache", async () => {
    requests.mark();
    const { read } = await watchAllGrants();
    const grants = read().environment.grants;
    expect(grants.edges.map((edge: any) => edge.node.uuid)).toEqual(await grantUuidsInOneRequest(world));
    expect(grants.pageInfo.hasNextPage).toBe(false);
    const pages = Math.ceil(world.grants.length / PAGE_SIZE);
    expect(requests.since().filter((request) => request.operationName === "EnvironmentGrants")).toHaveLength(pages);
  });

  it("normalises each grant once, by __typename and id: another query for it updates the list", async () => {
    const { apollo, read } = await watchAllGrants();
    const listed = read().environment.grants.edges[0].node;
    expect(apollo.cache.identify(listed)).toBe(`Grant:${listed.id}`);
    expect(listed.automatic).toBe(true);
    await takeOverByHand(world, listed.uuid);

    const { data } = await apollo.query({ query: GRANT_BY_ID, variables: { id: listed.id }, fetchPolicy: "network-only" });
    expect(data).toMatchObject({ node: { id: listed.id, automatic: false } });
    expect(read().environment.grants.edges[0].node.automatic).toBe(false);
  });

  it("shows a mutation's result in the list it holds, without fetching the list again", async () => {
    const { apollo, read } = await watchAllGrants();
    const listed = read().environment.grants.edges[1].node;
    requests.mark();

    await apollo.mutate({ mutation: DELETE_GRANT, variables: { uuid: listed.uuid } });

    expect(read().environment.grants.edges[1].node).toMatchObject({ id: listed.id, lifecycle: "DELETED" });
    expect(requests.since().map((request) => request.operationName)).toEqual(["DeleteGrant"]);
  });
});
