// Cursor connections of the graph: Account.environments, Account.toolReleases, Environment.grants,
// ToolRelease.grants and Query.environments — paging both ways, filters, and who sees what.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Environment, ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { shareEnvironment } from "../../src/domain/environments.js";
import { deleteGrant } from "../../src/domain/grants.js";
import { depublishRelease } from "../../src/domain/releases.js";
import type { Client } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type Member, type World } from "../helpers/world.js";
import { dataOf, expectGraphQLError, grant, PAGE_ARGUMENTS, PAGE_INFO, PAGE_VARIABLES, pageOf, uniqueName, type Page } from "./support.js";

type PageArguments = { first?: number; after?: string | null; last?: number; before?: string | null };
type FetchPage = (page: PageArguments) => Promise<Page<any>>;

/** Pages forward with `first: size` from the start, following endCursor, until hasNextPage is false. */
async function idsPagingForward(fetchPage: FetchPage, size: number): Promise<string[][]> {
  const pages: string[][] = [];
  let after: string | null = null;
  for (;;) {
    const page = await fetchPage({ first: size, after });
    pages.push(page.nodes.map((node) => node.uuid));
    expect(page.pageInfo.endCursor === null).toBe(page.nodes.length === 0);
    if (!page.pageInfo.hasNextPage) return pages;
    after = page.pageInfo.endCursor;
  }
}

/** Pages backward with `last: size` from the end, following startCursor, until hasPreviousPage is false. */
async function idsPagingBackward(fetchPage: FetchPage, size: number): Promise<string[][]> {
  const pages: string[][] = [];
  let before: string | null = null;
  for (;;) {
    const page = await fetchPage({ last: size, before });
    pages.unshift(page.nodes.map((node) => node.uuid));
    if (!page.pageInfo.hasPreviousPage) return pages;
    before = page.pageInfo.startCursor;
  }
}

const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) => items.slice(index * size, index * size + size));

describeEachDatabase("GraphQL connections", (provider) => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  /** Runs `query` as `member` and returns the connection at `path` of its data as a page. */
  const connection =
    (asker: Client, query: string, path: (data: any) => any, variables: Record<string, unknown> = {}): FetchPage =>
    async (page) =>
      pageOf(path(dataOf(await asker.graphql(query, { ...variables, ...page }))));

  describe("Account.environments", () => {
    const MY_ENVIRONMENTS = `query (${PAGE_ARGUMENTS}) { me { environments(${PAGE_VARIABLES}) { edges { node { uuid name } } ${PAGE_INFO} } } }`;
    const ACCOUNT_ENVIRONMENTS = `query ($id: UUID!, ${PAGE_ARGUMENTS}) { account(id: $id) { environments(${PAGE_VARIABLES}) { edges { node { uuid name } } ${PAGE_INFO} } } }`;
    let member: Member;
    let byName: Environment[];

    beforeAll(async () => {
      member = await world.member();
      const created = [];
      for (const name of ["echo", "alpha", "delta", "charlie", "bravo"]) created.push(await world.environmentOf(member, { name }));
      byName = created.sort((a, b) => a.name.localeCompare(b.name));
    });

    it("lists the environments the account owns, ordered by name", async () => {
      const page = await connection(member.http, MY_ENVIRONMENTS, (data) => data.me.environments)({});
      expect(page.nodes).toEqual(byName.map(({ id, name }) => ({ uuid: id, name })));
      expect(page.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    });

    it("pages forward with first/after: hasNextPage until the last page, endCursor continues", async () => {
      const pages = await idsPagingForward(
        connection(member.http, MY_ENVIRONMENTS, (data) => data.me.environments),
        2,
      );
      expect(pages).toEqual(
        chunks(
          byName.map((environment) => environment.id),
          2,
        ),
      );
    });

    it("pages backward with last/before: hasPreviousPage until the first page, startCursor continues", async () => {
      const pages = await idsPagingBackward(
        connection(member.http, MY_ENVIRONMENTS, (data) => data.me.environments),
        2,
      );
      expect(pages).toEqual([[byName[0]!.id], [byName[1]!.id, byName[2]!.id], [byName[3]!.id, byName[4]!.id]]);
    });

    it("leaves out environments shared with the account (Query.environments has those)", async () => {
      const page = await connection(world.viewer.http, MY_ENVIRONMENTS, (data) => data.me.environments)({});
      expect(page.nodes.map((node) => node.uuid)).not.toContain(world.environment.id);
    });

    it("lists another account's environments for administrators", async () => {
      const page = await connection(world.admin, ACCOUNT_ENVIRONMENTS, (data) => data.account.environments, { id: member.account.id })({ first: 10 });
      expect(page.nodes.map((node) => node.uuid)).toEqual(byName.map((environment) => environment.id));
    });
  });

  describe("Account.toolReleases", () => {
    const RELEASES = `query ($lifecycle: ReleaseLifecycle, $name: String, ${PAGE_ARGUMENTS}) {
      me { toolReleases(lifecycle: $lifecycle, name: $name, ${PAGE_VARIABLES}) { edges { node { uuid name version lifecycle } } ${PAGE_INFO} } }
    }`;
    let member: Member;
    let ordered: ToolRelease[];
    let depublished: ToolRelease;
    const [zeta, beta] = [uniqueName("zeta"), uniqueName("beta")];

    beforeAll(async () => {
      member = await world.member();
      const zeta2 = await world.publish(member, zeta, "2.0.0");
      const beta1 = await world.publish(member, beta, "1.0.0");
      const zeta1 = await world.publish(member, zeta, "1.0.0");
      const beta3 = await world.publish(member, beta, "3.0.0");
      depublished = await world.publish(member, beta, "2.0.0");
      await depublishRelease(service.db, member.account, depublished.id);
      ordered = [beta1, depublished, beta3, zeta1, zeta2];
    });

    const releases = (variables: Record<string, unknown> = {}) => connection(member.http, RELEASES, (data) => data.me.toolReleases, variables);

    it("lists every release the account owns in every lifecycle, ordered by name, then version", async () => {
      const page = await releases()({});
      expect(page.nodes.map((node) => node.uuid)).toEqual(ordered.map((release) => release.id));
      expect(page.nodes.find((node) => node.uuid === depublished.id)).toMatchObject({ lifecycle: "DE_PUBLISHED" });
    });

    it("filters by lifecycle", async () => {
      expect((await releases({ lifecycle: "DE_PUBLISHED" })({})).nodes.map((node) => node.uuid)).toEqual([depublished.id]);
      expect((await releases({ lifecycle: "PUBLISHED" })({})).nodes).toHaveLength(4);
    });

    it("filters by exact middleware name", async () => {
      const page = await releases({ name: zeta })({});
      expect(page.nodes.map((node) => [node.name, node.version])).toEqual([
        [zeta, "1.0.0"],
        [zeta, "2.0.0"],
      ]);
      expect((await releases({ name: zeta.slice(0, -1) })({})).nodes).toEqual([]);
    });

    it("pages forward with first/after and backward with last/before", async () => {
      const ids = ordered.map((release) => release.id);
      expect(await idsPagingForward(releases(), 2)).toEqual(chunks(ids, 2));
      expect((await idsPagingBackward(releases(), 3)).flat()).toEqual(ids);
    });

    it("pages within a filter", async () => {
      const ids = ordered.filter((release) => release.name === beta).map((release) => release.id);
      expect(await idsPagingForward(releases({ name: beta }), 2)).toEqual(chunks(ids, 2));
    });
  });

  describe("Environment.grants", () => {
    const GRANTS = `query ($id: UUID!, $includeDeleted: Boolean, $name: String, ${PAGE_ARGUMENTS}) {
      environment(id: $id) {
        grants(includeDeleted: $includeDeleted, name: $name, ${PAGE_VARIABLES}) { edges { node { uuid lifecycle release { name } } } ${PAGE_INFO} }
      }
    }`;
    let environment: Environment;
    let activeIds: string[];
    let deletedId: string;
    const [first, second] = [uniqueName("a-grants"), uniqueName("b-grants")];

    beforeAll(async () => {
      environment = await world.environmentOf(world.owner);
      await shareEnvironment(service.db, "system", { environmentId: environment.id, accountId: world.deployer.account.id, role: "deployer" });
      await shareEnvironment(service.db, "system", { environmentId: environment.id, accountId: world.viewer.account.id, role: "viewer" });
      const releases = [
        await world.publish(world.owner, first, "1.0.0"),
        await world.publish(world.stranger, first, "2.0.0"),
        await world.publish(world.owner, second, "1.0.0"),
        await world.publish(world.owner, second, "2.0.0"),
        await world.publish(world.owner, second, "3.0.0"),
      ];
      const grants = [];
      for (const release of releases) grants.push(await grant(world, environment, release));
      await deleteGrant(service.db, world.owner.account, grants[2]!.id);
      deletedId = grants[2]!.id;
      activeIds = grants.filter((row) => row.id !== deletedId).map((row) => row.id);
    });

    const grants = (asker: Client, variables: Record<string, unknown> = {}) =>
      connection(asker, GRANTS, (data) => data.environment.grants, { id: environment.id, ...variables });

    it("lists active grants ordered by release name, then version", async () => {
      expect((await grants(world.viewer.http)({})).nodes.map((node) => node.uuid)).toEqual(activeIds);
    });

    it("pages forward with first/after and backward with last/before", async () => {
      expect(await idsPagingForward(grants(world.viewer.http), 3)).toEqual(chunks(activeIds, 3));
      expect((await idsPagingBackward(grants(world.viewer.http), 3)).flat()).toEqual(activeIds);
    });

    it("filters by release name", async () => {
      const page = await grants(world.viewer.http, { name: second })({});
      expect(page.nodes.map((node) => node.release.name)).toEqual([second, second]);
    });

    it("includeDeleted adds deleted grants, in order, for the environment's owner", async () => {
      const page = await grants(world.owner.http, { includeDeleted: true })({});
      expect(page.nodes.map((node) => node.uuid)).toEqual([activeIds[0], activeIds[1], deletedId, activeIds[2], activeIds[3]]);
      expect(page.nodes.find((node) => node.uuid === deletedId)).toMatchObject({ lifecycle: "DELETED" });
    });

    it("includeDeleted works for administrators", async () => {
      expect((await grants(world.admin, { includeDeleted: true, name: second })({})).nodes.map((node) => node.uuid)).toContain(deletedId);
    });

    it("includeDeleted is AUTH_FORBIDDEN (403) for deployers and viewers", async () => {
      for (const member of [world.deployer, world.viewer]) {
        const result = await member.http.graphql(GRANTS, { id: environment.id, includeDeleted: true });
        expectGraphQLError(result, "AUTH_FORBIDDEN", 403);
        expect(result.body.data).toBeNull();
      }
    });

    it("includeDeleted: false is the default list for anyone", async () => {
      expect((await grants(world.viewer.http, { includeDeleted: false })({})).nodes.map((node) => node.uuid)).toEqual(activeIds);
    });
  });

  describe("ToolRelease.grants", () => {
    const RELEASE_GRANTS = `query ($id: UUID!, ${PAGE_ARGUMENTS}) {
      toolRelease(id: $id) { grants(${PAGE_VARIABLES}) { edges { node { uuid environment { uuid } } } ${PAGE_INFO} } }
    }`;
    let release: ToolRelease;
    let publisher: Member;
    let ownEnvironments: Environment[];
    let foreignGrantId: string;

    beforeAll(async () => {
      publisher = await world.member();
      release = await world.publish(publisher, uniqueName("widely-granted"), "1.0.0");
      ownEnvironments = [];
      for (let index = 0; index < 3; index += 1) ownEnvironments.push(await world.environmentOf(publisher));
      for (const environment of ownEnvironments) await grant(world, environment, release, publisher);
      foreignGrantId = (await grant(world, world.environment, release)).id;
    });

    const releaseGrants = (asker: Client) => connection(asker, RELEASE_GRANTS, (data) => data.toolRelease.grants, { id: release.id });

    it("lists, for the release's owner, its active grants in environments the owner can see, oldest first", async () => {
      const page = await releaseGrants(publisher.http)({});
      expect(page.nodes.map((node) => node.environment.uuid)).toEqual(ownEnvironments.map((environment) => environment.id));
      expect(page.nodes.map((node) => node.uuid)).not.toContain(foreignGrantId);
    });

    it("lists grants in every environment for administrators", async () => {
      const page = await releaseGrants(world.admin)({});
      expect(page.nodes.map((node) => node.uuid)).toContain(foreignGrantId);
      expect(page.nodes).toHaveLength(4);
    });

    it("pages forward with first/after and backward with last/before", async () => {
      const ids = (await releaseGrants(publisher.http)({})).nodes.map((node) => node.uuid);
      expect(await idsPagingForward(releaseGrants(publisher.http), 2)).toEqual(chunks(ids, 2));
      expect((await idsPagingBackward(releaseGrants(publisher.http), 2)).flat()).toEqual(ids);
    });

    it("leaves out deleted grants, and is empty while the release is de-published", async () => {
      const other = await world.publish(publisher, uniqueName("short-lived"), "1.0.0");
      const kept = await grant(world, ownEnvironments[0]!, other, publisher);
      const deleted = await grant(world, ownEnvironments[1]!, other, publisher);
      await deleteGrant(service.db, publisher.account, deleted.id);
      const page = await connection(publisher.http, RELEASE_GRANTS, (data) => data.toolRelease.grants, { id: other.id })({});
      expect(page.nodes.map((node) => node.uuid)).toEqual([kept.id]);
      await depublishRelease(service.db, publisher.account, other.id);
      expect((await connection(publisher.http, RELEASE_GRANTS, (data) => data.toolRelease.grants, { id: other.id })({})).nodes).toEqual([]);
    });
  });

  describe("Query.environments", () => {
    const ENVIRONMENTS = `query (${PAGE_ARGUMENTS}) { environments(${PAGE_VARIABLES}) { edges { node { uuid name } } ${PAGE_INFO} } }`;
    const environments = (asker: Client) => connection(asker, ENVIRONMENTS, (data) => data.environments);

    it("lists the environments you own and the ones shared with you, ordered by name", async () => {
      const member = await world.member();
      const own = await world.environmentOf(member, { name: "zz-own" });
      const shared = await world.environmentOf(world.stranger, { name: "aa-shared" });
      await shareEnvironment(service.db, "system", { environmentId: shared.id, accountId: member.account.id, role: "viewer" });
      expect((await environments(member.http)({})).nodes).toEqual([
        { uuid: shared.id, name: "aa-shared" },
        { uuid: own.id, name: "zz-own" },
      ]);
    });

    it("leaves out environments you cannot see", async () => {
      const ids = (await environments(world.stranger.http)({ first: 500 })).nodes.map((node) => node.uuid);
      expect(ids).not.toContain(world.environment.id);
      expect((await environments(world.viewer.http)({ first: 500 })).nodes.map((node) => node.uuid)).toContain(world.environment.id);
    });

    it("lists every environment for administrators, one page at a time", async () => {
      const all = await service.db.environment.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }], select: { id: true } });
      const pages = await idsPagingForward(environments(world.admin), 4);
      expect(pages.flat()).toEqual(all.map((environment) => environment.id));
      expect(pages.slice(0, -1).every((page) => page.length === 4)).toBe(true);
    });
  });

  describe("connection arguments", () => {
    const MY_ENVIRONMENTS = `query (${PAGE_ARGUMENTS}) { me { environments(${PAGE_VARIABLES}) { edges { node { id } } } } }`;

    it("answers a cursor the server did not issue with REQUEST_INVALID (400)", async () => {
      expectGraphQLError(await world.owner.http.graphql(MY_ENVIRONMENTS, { after: "not-a-cursor" }), "REQUEST_INVALID", 400);
    });

    it("answers a negative page size with REQUEST_INVALID (400)", async () => {
      expectGraphQLError(await world.owner.http.graphql(MY_ENVIRONMENTS, { first: -1 }), "REQUEST_INVALID", 400);
    });
  });
});
