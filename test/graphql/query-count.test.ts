// Nested reads are N+1-free: the number of SQL statements a request costs does not grow with the
// number of grants, environments or release owners it returns.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Environment } from "../../src/db/generated/sqlite/client.js";
import { createGrant } from "../../src/domain/grants.js";
import { RUNS_BEFORE_COMPILING } from "../../src/graphql/compiled-execution.js";
import type { Client } from "../helpers/http.js";
import { describeEachDatabase } from "../helpers/service.js";
import { createWorld, type Member, type World } from "../helpers/world.js";
import { startCountingService, type CountingService } from "./counting-service.js";

const ENVIRONMENT_GRANT_OWNERS = /* GraphQL */ `
  query EnvironmentGrantOwners($id: UUID!) {
    environment(id: $id) {
      grants(first: 50) { edges { node { release { owner { name } } } } }
    }
  }
`;

// Page sizes as variables: graphql-armor multiplies literal page sizes into its cost estimate, and
// the literal `first: 10 … first: 20` of this read is over the cost limit (docs/graphql-limits.md).
const MY_ENVIRONMENTS_WITH_GRANTS = /* GraphQL */ `
  query MyEnvironmentsWithGrants($environments: Int!, $grants: Int!) {
    me {
      environments(first: $environments) {
        edges { node { grants(first: $grants) { edges { node { release { name owner { name } } } } } } }
      }
    }
  }
`;
const PAGES = { environments: 10, grants: 20 };

const OWNERS_LISTS_THROUGH_GRANTS = /* GraphQL */ `
  query OwnersListsThroughGrants($id: UUID!, $grants: Int = 50, $lists: Int = 5) {
    environment(id: $id) {
      grants(first: $grants) {
        nodes {
          release {
            definitionSummary { commands { path } }
            owner { name toolReleaseList { name } toolReleases(first: $lists) { nodes { name } } environments(first: $lists) { nodes { name } } }
          }
        }
      }
    }
  }
`;

const ENVIRONMENT_GRANTS_PAGE = /* GraphQL */ `
  query EnvironmentGrantsPage($id: UUID!, $first: Int, $last: Int, $after: String, $before: String) {
    environment(id: $id) {
      grants(first: $first, last: $last, after: $after, before: $before) { edges { cursor node { release { name } } } }
    }
  }
`;

// The benchmark's nested read (docs/performance.md).
const ACTIVE_GRANTS_WITH_RELEASES = /* GraphQL */ `
  query ActiveGrantsWithReleases($id: UUID!) {
    environment(id: $id) { name activeGrants { id release { name version owner { name } } } }
  }
`;

describeEachDatabase("nested reads cost a constant number of database queries", (provider) => {
  let service: CountingService;
  let world: World;
  let sequence = 0;

  beforeAll(async () => {
    service = await startCountingService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  /** An environment of `owner` with `count` grants of releases owned by `publishers` in turn. */
  async function environmentWithGrants(owner: Member, count: number, publishers: Member[]): Promise<Environment> {
    // Named by its grant count, zero-padded: environments list by name, and the world's own names
    // (env-9, env-10) would not sort in the order they were made.
    const environment = await world.environmentOf(owner, { name: `grants-${String(count).padStart(3, "0")}` });
    for (let index = 0; index < count; index += 1) {
      const publisher = publishers[index % publishers.length]!;
      const release = await world.publish(publisher, `tool-${(sequence += 1)}`, "1.0.0");
      await createGrant(service.db, owner.account, environment.id, { release: { type: "ById", releaseId: release.id } });
    }
    return environment;
  }

  /**
   * The statements of one request. `compileBy`: first run the document often enough, as that asker
   * with those variables, for the request to execute as the function compiled for it
   * (src/graphql/compiled-execution.ts); each comparison below holds a compiled execution to a
   * graphql-js one's count. (Other variables than the counted request's, or the caches they fill
   * would save the counted request statements.)
   */
  async function countedGraphql(
    asker: Client,
    query: string,
    variables?: Record<string, unknown>,
    { compileBy }: { compileBy?: { asker: Client; variables: Record<string, unknown> } } = {},
  ) {
    if (compileBy) for (let run = 0; run < RUNS_BEFORE_COMPILING; run++) await compileBy.asker.graphql(query, compileBy.variables);
    let body: { data?: any; errors?: unknown[] } = {};
    const { count, statements } = await service.countQueries(async () => {
      body = (await asker.graphql(query, variables)).body;
    });
    expect(body.errors).toBeUndefined();
    return { data: body.data, count, statements };
  }

  it("environment(id) { grants(first: 50) { … release { owner { name } } } } costs the same for 2 grants as for 40", async () => {
    const owner = await world.member();
    const publishers = [world.owner, world.stranger, world.deployer, await world.member(), await world.member()];
    const small = await environmentWithGrants(owner, 2, publishers);
    const large = await environmentWithGrants(owner, 40, publishers);

    const few = await countedGraphql(owner.http, ENVIRONMENT_GRANT_OWNERS, { id: small.id });
    const many = await countedGraphql(
      owner.http,
      ENVIRONMENT_GRANT_OWNERS,
      { id: large.id },
      { compileBy: { asker: owner.http, variables: { id: small.id } } },
    );

    expect(few.data.environment.grants.edges).toHaveLength(2);
    expect(many.data.environment.grants.edges).toHaveLength(40);
    expect(new Set(many.data.environment.grants.edges.map((edge: any) => edge.node.release.owner.name)).size).toBe(publishers.length);
    expect(many.count).toBe(few.count);
  });

  it("me { environments(first: 10) { … grants(first: 20) { … release { name owner { name } } } } } costs the same for 1 environment as for 6", async () => {
    const publishers = [world.owner, world.stranger, await world.member()];
    const lone = await world.member();
    await environmentWithGrants(lone, 2, publishers);
    const busy = await world.member();
    for (const grants of [1, 3, 5, 8, 13, 20]) await environmentWithGrants(busy, grants, publishers);

    const one = await countedGraphql(lone.http, MY_ENVIRONMENTS_WITH_GRANTS, PAGES);
    const six = await countedGraphql(busy.http, MY_ENVIRONMENTS_WITH_GRANTS, PAGES, { compileBy: { asker: lone.http, variables: PAGES } });

    expect(one.data.me.environments.edges).toHaveLength(1);
    expect(six.data.me.environments.edges.map((edge: any) => edge.node.grants.edges.length)).toEqual([1, 3, 5, 8, 13, 20]);
    expect(six.count).toBe(one.count);
  });

  it("owners' lists under each grant (toolReleaseList, toolReleases, environments) cost the same for 2 grants as for 40", async () => {
    const owner = await world.member();
    const publishers = [await world.member(), await world.member(), await world.member()];
    for (const publisher of publishers) await world.environmentOf(publisher);
    const small = await environmentWithGrants(owner, 2, publishers);
    const large = await environmentWithGrants(owner, 40, publishers);

    const few = await countedGraphql(world.admin, OWNERS_LISTS_THROUGH_GRANTS, { id: small.id });
    const many = await countedGraphql(
      world.admin,
      OWNERS_LISTS_THROUGH_GRANTS,
      { id: large.id },
      { compileBy: { asker: world.admin, variables: { id: small.id } } },
    );

    const owners = many.data.environment.grants.nodes.map((node: any) => node.release.owner);
    expect(owners.every((account: any) => account.toolReleaseList.length > 0 && account.environments.nodes.length >= 1)).toBe(true);
    expect(many.count).toBe(few.count);
  });

  it("a webhook's delivery log (REST) costs the same for 1 delivery as for 3, also once its document is compiled", async () => {
    const owner = await world.member();
    const environment = await world.environmentOf(owner, { name: "webhooks" });
    const hooked = async () => {
      const created = await owner.http.post(`/v1/envs/${environment.id}/webhooks`, { url: "https://receiver.example/hook" });
      expect(created.status, created.text).toBe(201);
      return created.body.webhook.id as string;
    };
    const lone = await hooked();
    const busy = await hooked();
    await hooked();
    const events = await service.db.changeEvent.findMany({ where: { environmentId: environment.id }, orderBy: { id: "asc" } });
    expect(events.length).toBeGreaterThanOrEqual(3);
    // Logged as the sender logs them (this service sends nothing): a failed attempt, then a delivered one.
    const log = async (webhookId: string, eventIds: string[]) => {
      for (const eventId of eventIds) {
        const attempt = (outcome: string, at: number) => ({
          attemptedAt: new Date(Date.now() + at),
          outcome,
          statusCode: outcome === "delivered" ? 204 : 500,
          latencyMs: 3,
          error: outcome === "delivered" ? null : "answered 500",
          responseBody: "",
          redelivery: false,
        });
        await service.db.webhookDelivery.create({
          data: { webhookId, eventId, status: "delivered", attempts: { create: [attempt("failed", 0), attempt("delivered", 1000)] } },
        });
      }
    };
    await log(lone, [events[0]!.id]);
    await log(
      busy,
      events.slice(0, 3).map((event) => event.id),
    );
    const counted = async (webhookId: string) => {
      let body: any;
      const { count } = await service.countQueries(async () => {
        const page = await owner.http.get(`/v1/webhooks/${webhookId}/deliveries?limit=500`);
        expect(page.status, page.text).toBe(200);
        body = page.body;
      });
      return { count, deliveries: body.values as { attempts: { outcome: string }[] }[] };
    };

    const one = await counted(lone);
    for (let run = 0; run < RUNS_BEFORE_COMPILING; run++) await counted(lone);
    const three = await counted(busy);

    expect(one.deliveries).toHaveLength(1);
    expect(three.deliveries).toHaveLength(3);
    for (const delivery of three.deliveries) expect(delivery.attempts.map((attempt) => attempt.outcome)).toEqual(["delivered", "failed"]);
    expect(three.count).toBe(one.count);
  });

  it("a page with first, last, after and before together costs what a page with first alone does", async () => {
    const owner = await world.member();
    const environment = await environmentWithGrants(owner, 8, [world.owner, world.stranger]);
    const all = await countedGraphql(owner.http, ENVIRONMENT_GRANTS_PAGE, { id: environment.id, first: 8 });
    const cursors = all.data.environment.grants.edges.map((edge: any) => edge.cursor);

    const plain = await countedGraphql(owner.http, ENVIRONMENT_GRANTS_PAGE, { id: environment.id, first: 3 });
    const combined = await countedGraphql(owner.http, ENVIRONMENT_GRANTS_PAGE, {
      id: environment.id,
      first: 4,
      last: 2,
      after: cursors[0],
      before: cursors[7],
    });

    expect(combined.data.environment.grants.edges.map((edge: any) => edge.cursor)).toEqual(cursors.slice(3, 5));
    expect(combined.count).toBe(plain.count);
  });

  it("the nested read selects only the columns its fields show: no definitions, digests or bookkeeping", async () => {
    const owner = await world.member();
    const environment = await environmentWithGrants(owner, 3, [world.owner, world.stranger]);
    const { data, statements } = await countedGraphql(owner.http, ACTIVE_GRANTS_WITH_RELEASES, { id: environment.id });

    expect(data.environment.activeGrants).toHaveLength(3);
    expect(data.environment.activeGrants[0].release.owner.name).toEqual(expect.any(String));
    // Every column the statements name, by table: selected (plain, or inside the JSON objects that
    // PostgreSQL's joined reads build), filtered on or ordered by, of tables read or joined.
    const namedByTable = new Map<string, Set<string>>();
    for (const statement of statements) {
      const tableOfAlias = new Map<string, string>();
      for (const [, table, alias] of statement.matchAll(/(?:FROM|JOIN) (?:[`"]\w+[`"]\.)?[`"](\w+)[`"](?: AS [`"](\w+)[`"])?/g))
        tableOfAlias.set(alias ?? table!, table!);
      for (const [, qualifier, column] of statement.matchAll(/[`"](\w+)[`"]\.[`"](\w+)[`"](?!\.)/g)) {
        const table = tableOfAlias.get(qualifier!);
        if (!table) continue;
        const columns = namedByTable.get(table) ?? new Set<string>();
        namedByTable.set(table, columns.add(column!));
      }
    }
    const heavyOrBookkeeping = [
      "definition",
      "metadataDigest",
      "sourceDigest",
      "componentId",
      "componentName",
      "createdById",
      "stateChangedById",
      "stateChangedAt",
    ];
    expect(namedByTable.get("ToolRelease")).toBeDefined();
    expect(namedByTable.get("Grant")).toBeDefined();
    expect([...namedByTable.get("ToolRelease")!].filter((column) => heavyOrBookkeeping.includes(column))).toEqual([]);
    expect([...namedByTable.get("Grant")!].filter((column) => [...heavyOrBookkeeping, "protected", "automatic", "followCoordinates"].includes(column))).toEqual(
      [],
    );
    expect([...namedByTable.get("ToolRelease")!]).toEqual(expect.arrayContaining(["id", "name", "version", "ownerAccountId"]));
  });
});
