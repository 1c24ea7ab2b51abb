// Every connection pages by the Relay cursor connections spec (https://relay.dev/graphql/connections.htm):
// each combination of first, last, after and before, compared with an oracle that runs the spec's
// algorithm over the whole list, read once with a page larger than it. The rules the spec leaves to
// the server, and toolgate's choices, are in docs/graphql.md ("Pagination").
import { decodeGlobalID } from "@pothos/plugin-relay";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Environment, ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { shareEnvironment } from "../../src/domain/environments.js";
import { deleteGrant } from "../../src/domain/grants.js";
import { depublishRelease } from "../../src/domain/releases.js";
import type { Client } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type Member, type World } from "../helpers/world.js";
import { dataOf, expectGraphQLError, globalId, grant, uniqueName, type GraphQLResult } from "./support.js";

/** The field that names a node. It becomes `id` when `id` turns into the Relay global id. */
const NODE_IDENTITY = "id";

/** toolgate's page size when neither `first` nor `last` is given (docs/graphql.md). */
const DEFAULT_PAGE_SIZE = 50;

interface Arguments {
  first?: number;
  last?: number;
  after?: string;
  before?: string;
}

interface Edge {
  cursor: string;
  node: Record<string, string>;
}

interface Page {
  edges: Edge[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/**
 * The page the spec's algorithm gives for `args` over the whole list `all`, with toolgate's choices
 * where the spec leaves one to the server (each marked "toolgate:").
 */
function specPage(all: Edge[], { first, last, after, before }: Arguments): Page {
  const afterIndex = after === undefined ? -1 : all.findIndex((edge) => edge.cursor === after);
  const beforeIndex = before === undefined ? -1 : all.findIndex((edge) => edge.cursor === before);
  // toolgate: a cursor is a position. `before` ahead of `after` marks an empty range at no place in the
  // list, `before` equal to `after` an empty range at that item's place (the spec's wording would
  // drop `before` in both cases, as it is no longer among the edges left after `after`).
  const crossed = afterIndex >= 0 && beforeIndex >= 0 && beforeIndex < afterIndex;
  // ApplyCursorsToEdges.
  let edges = all;
  if (afterIndex >= 0) edges = edges.slice(afterIndex + 1);
  if (beforeIndex >= 0) edges = edges.slice(0, Math.max(0, beforeIndex - afterIndex - 1));
  // EdgesToReturn.
  let page = edges;
  if (first !== undefined) page = page.slice(0, first);
  if (last !== undefined) page = page.slice(Math.max(0, page.length - last));
  // toolgate: without first and last, the page is the first 50 rather than the whole range.
  const truncated = first === undefined && last === undefined && page.length > DEFAULT_PAGE_SIZE;
  if (truncated) page = page.slice(0, DEFAULT_PAGE_SIZE);
  return {
    edges: page,
    pageInfo: {
      // toolgate, where the spec allows false: true when `after`'s item is in the list, for it precedes the page.
      hasPreviousPage: last !== undefined ? edges.length > last : afterIndex >= 0 && !crossed,
      // toolgate, where the spec allows false: true when `before`'s item is in the list, or the default page cut the range.
      hasNextPage: first !== undefined ? edges.length > first : truncated || (beforeIndex >= 0 && !crossed),
      startCursor: page[0]?.cursor ?? null,
      endCursor: page.at(-1)?.cursor ?? null,
    },
  };
}

/** Every combination of the given values of each argument, absent (undefined) included. */
function combinations(sizes: number[], cursors: string[]): Arguments[] {
  const all: Arguments[] = [];
  for (const first of [undefined, ...sizes])
    for (const last of [undefined, ...sizes])
      for (const after of [undefined, ...cursors])
        for (const before of [undefined, ...cursors]) {
          const args: Arguments = {};
          if (first !== undefined) args.first = first;
          if (last !== undefined) args.last = last;
          if (after !== undefined) args.after = after;
          if (before !== undefined) args.before = before;
          all.push(args);
        }
  return all;
}

/** Cursors of the items at the start, just after it, in the middle, just before the end and at the end. */
const cursorsAcross = (all: Edge[]) => [...new Set([0, 1, Math.floor(all.length / 2), all.length - 2, all.length - 1])].map((index) => all[index]!.cursor);

/** Arguments as a reader can tell them apart: cursors by the index of their item in the whole list. */
function describeArguments(all: Edge[], args: Arguments): string {
  const at = (cursor: string) => `#${all.findIndex((edge) => edge.cursor === cursor)}`;
  return JSON.stringify({ ...args, ...(args.after && { after: at(args.after) }), ...(args.before && { before: at(args.before) }) });
}

/** The UUID of the grant at `edge`, from its global id. */
const grantIdOf = (edge: Edge) => decodeGlobalID(edge.node[NODE_IDENTITY]!).id;

const PAGE_SELECTION = `edges { cursor node { ${NODE_IDENTITY} } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;

/** How to reach one connection: the document around its (aliased) fields, and where they land in the data. */
interface ConnectionUnderTest {
  asker: Client;
  field: string;
  /** The operation with `fields` where the connection sits, and its own `variables` declared after `declarations`. */
  document: (declarations: string, fields: string) => string;
  variables: Record<string, unknown>;
  parent: (data: any) => any;
}

/** Hundreds of pages, a dozen per request: more than the default 30 s on a busy machine. */
const ENUMERATION_TIMEOUT = 120_000;

/** Aliased fields per request: graphql-armor allows 15 aliases per operation. */
const PAGES_PER_REQUEST = 12;

/** The pages of `argsList`, requested a dozen at a time as aliases of the connection field. */
async function pagesOf(connection: ConnectionUnderTest, argsList: Arguments[]): Promise<Page[]> {
  const pages: Page[] = [];
  for (let start = 0; start < argsList.length; start += PAGES_PER_REQUEST) {
    const batch = argsList.slice(start, start + PAGES_PER_REQUEST);
    const declarations = batch.map((_, i) => `$f${i}: Int, $l${i}: Int, $a${i}: String, $b${i}: String`).join(", ");
    const fields = batch
      .map((_, i) => `p${i}: ${connection.field}(first: $f${i}, last: $l${i}, after: $a${i}, before: $b${i}) { ${PAGE_SELECTION} }`)
      .join("\n");
    const variables: Record<string, unknown> = { ...connection.variables };
    batch.forEach((args, i) => Object.assign(variables, { [`f${i}`]: args.first, [`l${i}`]: args.last, [`a${i}`]: args.after, [`b${i}`]: args.before }));
    const parent = connection.parent(dataOf(await connection.asker.graphql(connection.document(declarations, fields), variables)));
    batch.forEach((_, i) => pages.push(parent[`p${i}`]));
  }
  return pages;
}

/** The whole list, in one page larger than it. */
async function wholeList(connection: ConnectionUnderTest): Promise<Edge[]> {
  const [page] = await pagesOf(connection, [{ first: 500 }]);
  expect(page!.pageInfo.hasNextPage).toBe(false);
  return page!.edges;
}

/** Requests every page of `argsList` and compares it with the spec's page over the whole list. */
async function expectSpecPages(connection: ConnectionUnderTest, all: Edge[], argsList: Arguments[]): Promise<void> {
  const pages = await pagesOf(connection, argsList);
  const mismatches = argsList
    .map((args, i) => ({ args: describeArguments(all, args), expected: specPage(all, args), actual: pages[i] }))
    .filter(({ expected, actual }) => !isDeepStrictEqual(expected, actual));
  expect(mismatches.slice(0, 3), `${mismatches.length} of ${argsList.length} pages differ from the spec's`).toEqual([]);
}

/** A connection field of `me`, asked by `member`. */
const connectionOfMe = (member: Member, field: string): ConnectionUnderTest => ({
  asker: member.http,
  field,
  document: (declarations, fields) => `query (${declarations}) { me { ${fields} } }`,
  variables: {},
  parent: (data) => data.me,
});

describeEachDatabase("Relay cursor pagination", (provider) => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  const grantsOf = (asker: Client, environment: Environment, includeDeleted = false): ConnectionUnderTest => ({
    asker,
    field: "grants",
    document: (declarations, fields) =>
      `query (${declarations}, $id: UUID!, $includeDeleted: Boolean) { environment(id: $id) { ${fields.replaceAll("grants(", "grants(includeDeleted: $includeDeleted, ")} } }`,
    variables: { id: environment.id, includeDeleted },
    parent: (data) => data.environment,
  });

  const environmentsOf = (asker: Client): ConnectionUnderTest => ({
    asker,
    field: "environments",
    document: (declarations, fields) => `query (${declarations}) { ${fields} }`,
    variables: {},
    parent: (data) => data,
  });

  describe("Environment.grants", () => {
    let owner: Member;
    let environment: Environment;
    let connection: ConnectionUnderTest;
    let all: Edge[];

    beforeAll(async () => {
      owner = await world.member({ plan: "unlimited" });
      environment = await world.environmentOf(owner);
      const [tie, versions] = [uniqueName("same-coordinates"), uniqueName("versions")];
      const publishers = [owner, await world.member(), await world.member()];
      const releases: ToolRelease[] = [];
      // Three releases with the same name and version (of three owners): creation, then id, order them.
      for (const publisher of publishers) releases.push(await world.publish(publisher, tie, "1.0.0"));
      for (const version of ["1.0.0", "10.0.0", "2.0.0", "1.0.0-rc.1"]) releases.push(await world.publish(owner, versions, version));
      for (const name of ["zulu", "alpha", "a-b", "a1", "ab"]) releases.push(await world.publish(owner, uniqueName(name), "1.0.0"));
      for (const release of releases.reverse()) await grant(world, environment, release, owner);
      connection = grantsOf(owner.http, environment);
      all = await wholeList(connection);
      expect(all).toHaveLength(releases.length);
    });

    // 900 pages, each read with its own query (and the releases' names and versions, which order them).
    it("answers the spec's page for every combination of first, last, after and before", { timeout: ENUMERATION_TIMEOUT }, async () => {
      await expectSpecPages(connection, all, combinations([0, 1, 3, 100], cursorsAcross(all)));
    });

    it("answers an empty list with empty pages", async () => {
      const empty = grantsOf(owner.http, await world.environmentOf(owner));
      await expectSpecPages(empty, [], combinations([0, 1, 3], []));
    });

    it("after the cursor of a grant deleted since, continues where the grant was", async () => {
      const environment = await world.environmentOf(owner);
      for (const name of ["d1", "d2", "d3", "d4"]) await grant(world, environment, await world.publish(owner, uniqueName(name), "1.0.0"), owner);
      const before = await wholeList(grantsOf(owner.http, environment));
      const [first, deleted, third, fourth] = before;
      await deleteGrant(service.db, owner.account, grantIdOf(deleted!));
      const [forward, backward, both] = await pagesOf(grantsOf(owner.http, environment), [
        { first: 5, after: deleted!.cursor },
        { last: 5, before: deleted!.cursor },
        { after: first!.cursor, before: deleted!.cursor },
      ]);
      expect(forward!.edges).toEqual([third, fourth]);
      // Whether items precede a cursor whose item has left the list is not known without another query: false.
      expect(forward!.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: false });
      expect(backward!.edges).toEqual([first]);
      expect(backward!.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: false });
      expect(both!.edges).toEqual([]);
      expect(both!.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    });

    it("takes the cursors of the list with deleted grants (includeDeleted) in the list without them", async () => {
      const environment = await world.environmentOf(owner);
      for (const name of ["e1", "e2", "e3"]) await grant(world, environment, await world.publish(owner, uniqueName(name), "1.0.0"), owner);
      const active = await wholeList(grantsOf(owner.http, environment));
      await deleteGrant(service.db, owner.account, grantIdOf(active[1]!));
      const withDeleted = await wholeList(grantsOf(owner.http, environment, true));
      expect(withDeleted.map((edge) => edge.cursor)).toEqual(active.map((edge) => edge.cursor));
      const [page] = await pagesOf(grantsOf(owner.http, environment), [{ first: 1, after: withDeleted[1]!.cursor }]);
      expect(page!.edges).toEqual([active[2]]);
    });
  });

  describe("Query.environments", () => {
    let member: Member;
    let connection: ConnectionUnderTest;
    let all: Edge[];

    beforeAll(async () => {
      member = await world.member({ plan: "unlimited" });
      const names = ["Zulu", "alpha", "a-b", "a_b", "a b", "Ähre", "ähre", "ab", "b", "B", "😀"];
      for (let index = 0; names.length < 53; index += 1) names.push(`env-${index}`);
      for (const name of names) await world.environmentOf(member, { name });
      // Same names as the member's own, owned by others and shared: the id orders them.
      for (const name of ["alpha", "env-7", "😀"]) {
        const shared = await world.environmentOf(await world.member(), { name });
        await shareEnvironment(service.db, "system", { environmentId: shared.id, accountId: member.account.id, role: "viewer" });
      }
      connection = environmentsOf(member.http);
      all = await wholeList(connection);
      // More than the default page, so that leaving out first and last cuts the range.
      expect(all).toHaveLength(56);
    });

    it("answers the spec's page for every combination of first, last, after and before", { timeout: ENUMERATION_TIMEOUT }, async () => {
      await expectSpecPages(connection, all, combinations([0, 1, 2, 7, 100], cursorsAcross(all)));
    });

    it("answers an empty list with empty pages", async () => {
      const loner = await world.member();
      await expectSpecPages(environmentsOf(loner.http), [], combinations([0, 1, 3], []));
    });

    it("takes the cursors of Account.environments, a list of the same items in the same order", async () => {
      const { me } = dataOf(await member.http.graphql(`{ me { environments(first: 3) { edges { cursor } } } }`));
      const own = me.environments.edges[1].cursor;
      const [page] = await pagesOf(connection, [{ first: 1, after: own }]);
      expect(page!.edges).toEqual([all[all.findIndex((edge) => edge.cursor === own) + 1]]);
    });
  });

  describe("Account.environments", () => {
    it("answers the spec's page for every combination of first, last, after and before", async () => {
      const member = await world.member();
      for (const name of ["delta", "alpha", "charlie", "echo", "bravo"]) await world.environmentOf(member, { name });
      const connection = connectionOfMe(member, "environments");
      const all = await wholeList(connection);
      expect(all).toHaveLength(5);
      await expectSpecPages(connection, all, combinations([0, 1, 3], cursorsAcross(all)));
    });
  });

  describe("Account.toolReleases", () => {
    it("answers the spec's page for every combination of first, last, after and before", async () => {
      const member = await world.member();
      const [name, other] = [uniqueName("paged"), uniqueName("other")];
      for (const version of ["2.0.0", "1.0.0", "10.0.0"]) await world.publish(member, name, version);
      const depublished = await world.publish(member, other, "1.0.0");
      await depublishRelease(service.db, member.account, depublished.id);
      await world.publish(member, other, "2.0.0");
      const connection = connectionOfMe(member, "toolReleases");
      const all = await wholeList(connection);
      expect(all).toHaveLength(5);
      await expectSpecPages(connection, all, combinations([0, 1, 3], cursorsAcross(all)));
    });
  });

  describe("ToolRelease.grants", () => {
    it("answers the spec's page for every combination of first, last, after and before", async () => {
      const publisher = await world.member();
      const release = await world.publish(publisher, uniqueName("granted"), "1.0.0");
      for (let index = 0; index < 5; index += 1) await grant(world, await world.environmentOf(publisher), release, publisher);
      const connection: ConnectionUnderTest = {
        asker: publisher.http,
        field: "grants",
        document: (declarations, fields) => `query (${declarations}, $id: UUID!) { toolRelease(id: $id) { ${fields} } }`,
        variables: { id: release.id },
        parent: (data) => data.toolRelease,
      };
      const all = await wholeList(connection);
      expect(all).toHaveLength(5);
      await expectSpecPages(connection, all, combinations([0, 1, 3], cursorsAcross(all)));
    });
  });

  describe("arguments the spec does not allow", () => {
    // Through `node`, which is nullable: an error in the connection nulls the node and nothing else.
    const GRANTS = `query ($id: ID!, $first: Int, $last: Int, $after: String, $before: String) {
      me { name }
      node(id: $id) { ... on Environment { name grants(first: $first, last: $last, after: $after, before: $before) { edges { cursor } } } }
    }`;
    const grantsWith = (args: Record<string, unknown>) => world.owner.http.graphql(GRANTS, { id: globalId("Environment", world.environment.id), ...args });
    const expectRejectedAtConnection = (result: GraphQLResult) => {
      expectGraphQLError(result, "REQUEST_INVALID", 400);
      expect(result.body.errors![0].path).toEqual(["node", "grants"]);
      expect(result.body.data).toEqual({ me: { name: "owner" }, node: null });
    };

    it("a negative first or last is REQUEST_INVALID (400) at the connection, its siblings answered", async () => {
      for (const args of [{ first: -1 }, { last: -1 }, { first: 2, last: -3 }]) {
        expectRejectedAtConnection(await grantsWith(args));
      }
    });

    it("a cursor this list did not issue is REQUEST_INVALID (400) at the connection", async () => {
      const { me } = dataOf(await world.owner.http.graphql(`{ me { environments(first: 1) { edges { cursor } } } }`));
      const notCursors = [
        "garbage",
        "",
        Buffer.from("not json").toString("base64url"),
        Buffer.from(JSON.stringify(["x", "y"])).toString("base64url"),
        // A cursor of the lists before this release (Pothos's format), and one of a list of environments.
        Buffer.from("GPC:S:019a0000-0000-7000-8000-000000000000").toString("base64"),
        me.environments.edges[0].cursor,
      ];
      for (const cursor of notCursors) {
        for (const argument of ["after", "before"]) {
          const result = await grantsWith({ [argument]: cursor });
          expectRejectedAtConnection(result);
          expect(result.body.errors![0].message).toContain(`${argument}:`);
        }
      }
    });

    it("a cursor of the right shape with values no list holds is REQUEST_INVALID (400)", async () => {
      const ENVIRONMENTS = `query ($after: String) { me { environments(first: 1, after: $after) { edges { cursor } } } }`;
      const { me } = dataOf(await world.owner.http.graphql(ENVIRONMENTS));
      // Knows the cursor's format (base64url JSON: a tag of the list's order, then the keys' values) to forge one.
      const [tag, , id] = JSON.parse(Buffer.from(me.environments.edges[0].cursor, "base64url").toString());
      const forged = (values: unknown[]) => Buffer.from(JSON.stringify([tag, ...values])).toString("base64url");
      for (const values of [["a\u0000b", id], ["production", 7], ["production"], ["production", id, "extra"]]) {
        expectGraphQLError(await world.owner.http.graphql(ENVIRONMENTS, { after: forged(values) }), "REQUEST_INVALID", 400);
      }
      expect(dataOf(await world.owner.http.graphql(ENVIRONMENTS, { after: forged(["production", id]) })).me.environments).toBeDefined();
    });
  });
});
