// No answer grows with the data: an account with 2,000 releases and an environment with 1,000 grants
// answer a first page of the default size and a nextCursor, in as many database statements as an
// account with 100 releases and an environment with 100 grants; following nextCursor visits every
// item once, in list order, each page at the first page's statements. The GraphQL lists answer at
// most 500 items.
import { afterAll, beforeAll, expect, it } from "vitest";
import { GRANT_LIST_ORDER } from "../../src/domain/grants.js";
import { LIST_CAP } from "../../src/graphql/capped-lists.js";
import { REST_PAGE_SIZE } from "../../src/http/rest/paging.js";
import type { Client } from "../helpers/http.js";
import { copyRelease, grantEach, offerEnvironments } from "../helpers/bulk-rows.js";
import { describeEachDatabase } from "../helpers/service.js";
import { createWorld, type Member, type World } from "../helpers/world.js";
import { startCountingService, type CountingService } from "../graphql/counting-service.js";

const RELEASE_ORDER = [{ name: "asc" as const }, { version: "asc" as const }, { createdAt: "asc" as const }, { id: "asc" as const }];

/** A publisher's releases and an environment granting the first `grants` of them, with their ids in list order. */
interface Catalogue {
  publisher: Member;
  releaseIds: string[];
  environmentId: string;
  grantIds: string[];
}

interface CountedAnswer {
  status: number;
  body: any;
  bytes: number;
  statements: number;
}

describeEachDatabase("long lists answer a page at a time, at a cost per page that does not grow with the list", (provider) => {
  let service: CountingService;
  let world: World;
  let small: Catalogue;
  let large: Catalogue;

  async function catalogue(releases: number, grants: number): Promise<Catalogue> {
    const publisher = await world.member({ plan: "unlimited" });
    const template = await world.publish(publisher, "git-lite", "2.43.0");
    await copyRelease(service.db, template, "bulk", releases - 1);
    const ordered = await service.db.toolRelease.findMany({ where: { ownerAccountId: publisher.account.id }, orderBy: RELEASE_ORDER, select: { id: true } });
    const environment = await world.environmentOf(publisher);
    await grantEach(
      service.db,
      environment.id,
      ordered.slice(0, grants).map((release) => release.id),
      publisher.account.id,
    );
    const granted = await service.db.grant.findMany({ where: { environmentId: environment.id }, orderBy: GRANT_LIST_ORDER, select: { id: true } });
    // Definitions are read by content, once per process (src/graphql/stored-definitions.ts), and every
    // copy has the template's: read it now, so that no page below pays the one statement a page
    // whose definitions are not cached yet costs.
    await publisher.http.get(`/v1/tool-releases/${template.id}`);
    return { publisher, releaseIds: ordered.map((release) => release.id), environmentId: environment.id, grantIds: granted.map((grant) => grant.id) };
  }

  beforeAll(async () => {
    service = await startCountingService(provider);
    world = await createWorld(service);
    small = await catalogue(100, 100);
    large = await catalogue(2000, 1000);
  }, 240_000);
  afterAll(() => service?.stopAndDrop());

  async function counted(asker: Client, path: string): Promise<CountedAnswer> {
    let answer: Omit<CountedAnswer, "statements"> | undefined;
    const { count } = await service.countQueries(async () => {
      const result = await asker.get(path);
      answer = { status: result.status, body: result.body, bytes: Buffer.byteLength(result.text) };
    });
    return { ...answer!, statements: count };
  }

  async function countedGraphql(asker: Client, query: string, variables: Record<string, unknown>) {
    let body: any;
    const { count } = await service.countQueries(async () => {
      body = (await asker.graphql(query, variables)).body;
    });
    return { body, statements: count };
  }

  /** Every page of a REST list from its first, following nextCursor. */
  async function walk(asker: Client, path: string): Promise<CountedAnswer[]> {
    const pages: CountedAnswer[] = [];
    let cursor: string | null = null;
    do {
      const page: CountedAnswer = await counted(asker, cursor === null ? path : `${path}?cursor=${encodeURIComponent(cursor)}`);
      expect(page.status).toBe(200);
      pages.push(page);
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    return pages;
  }

  const releasesPath = ({ publisher }: Catalogue) => `/v1/accounts/${publisher.account.id}/tool-releases`;
  const grantsPath = ({ environmentId }: Catalogue) => `/v1/envs/${environmentId}/tool-middlewares`;
  const ids = (values: { id: string }[]) => values.map((value) => value.id);
  const grantIds = (values: { grant: { id: string } }[]) => values.map((value) => value.grant.id);

  it("GET …/tool-releases without limit answers the first 100 of 2,000 releases and a nextCursor, in the statements and bytes of 100 releases", async () => {
    const few = await counted(small.publisher.http, releasesPath(small));
    const many = await counted(large.publisher.http, releasesPath(large));

    expect(REST_PAGE_SIZE.default).toBe(100);
    expect(ids(few.body.values)).toEqual(small.releaseIds);
    expect(few.body.nextCursor).toBeNull();
    expect(ids(many.body.values)).toEqual(large.releaseIds.slice(0, 100));
    expect(many.body.nextCursor).toEqual(expect.any(String));
    expect(many.statements).toBe(few.statements);
    // The same 100 copies of one release, so the same size but for the names and the cursor.
    expect(many.bytes).toBeLessThan(few.bytes * 1.01);
  });

  it("following nextCursor from GET …/tool-releases visits each of 2,000 releases once, in list order, every page at the first page's statements", async () => {
    const pages = await walk(large.publisher.http, releasesPath(large));

    expect(pages.map((page) => page.body.values.length)).toEqual(Array(20).fill(100));
    expect(pages.flatMap((page) => ids(page.body.values))).toEqual(large.releaseIds);
    expect(new Set(pages.map((page) => page.statements))).toEqual(new Set([pages[0]!.statements]));
  });

  it("GET …/tool-releases?limit=500 answers 500 releases (the largest page) within the execution budget", async () => {
    const page = await counted(large.publisher.http, `${releasesPath(large)}?limit=500`);
    expect(page.status).toBe(200);
    expect(ids(page.body.values)).toEqual(large.releaseIds.slice(0, 500));
    const next = await counted(large.publisher.http, `${releasesPath(large)}?limit=500&cursor=${encodeURIComponent(page.body.nextCursor)}`);
    expect(ids(next.body.values)).toEqual(large.releaseIds.slice(500, 1000));
    expect(next.statements).toBe(page.statements);
  });

  it("GET …/tool-middlewares without limit answers the first 100 of 1,000 grants and a nextCursor, in the statements and bytes of 100 grants", async () => {
    const few = await counted(small.publisher.http, grantsPath(small));
    const many = await counted(large.publisher.http, grantsPath(large));

    expect(grantIds(few.body.values)).toEqual(small.grantIds);
    expect(few.body.nextCursor).toBeNull();
    expect(grantIds(many.body.values)).toEqual(large.grantIds.slice(0, 100));
    expect(many.body.nextCursor).toEqual(expect.any(String));
    expect(many.statements).toBe(few.statements);
    expect(many.bytes).toBeLessThan(few.bytes * 1.01);
  });

  it("following nextCursor from GET …/tool-middlewares visits each of 1,000 grants once, in list order, every page at the first page's statements", async () => {
    const pages = await walk(large.publisher.http, grantsPath(large));

    expect(pages.map((page) => page.body.values.length)).toEqual(Array(10).fill(100));
    expect(pages.flatMap((page) => grantIds(page.body.values))).toEqual(large.grantIds);
    expect(new Set(pages.map((page) => page.statements))).toEqual(new Set([pages[0]!.statements]));
  });

  it("GraphQL toolReleaseList answers at most 500 releases, the first in list order, in the statements of 100", async () => {
    const query = "query ($id: UUID!, $first: Int) { account(id: $id) { toolReleaseList(first: $first) { uuid } } }";
    const few = await countedGraphql(small.publisher.http, query, { id: small.publisher.account.id });
    const many = await countedGraphql(large.publisher.http, query, { id: large.publisher.account.id });
    const ten = await countedGraphql(large.publisher.http, query, { id: large.publisher.account.id, first: 10 });

    expect(LIST_CAP).toBe(500);
    expect(few.body.data.account.toolReleaseList.map((release: any) => release.uuid)).toEqual(small.releaseIds);
    expect(many.body.data.account.toolReleaseList.map((release: any) => release.uuid)).toEqual(large.releaseIds.slice(0, 500));
    expect(ten.body.data.account.toolReleaseList.map((release: any) => release.uuid)).toEqual(large.releaseIds.slice(0, 10));
    expect(many.statements).toBe(few.statements);
  });

  it("GraphQL activeGrants answers at most 500 grants, the first in list order, in the statements of 100", async () => {
    const query = "query ($id: UUID!, $first: Int) { environment(id: $id) { activeGrants(first: $first) { uuid release { name owner { name } } } } }";
    const few = await countedGraphql(small.publisher.http, query, { id: small.environmentId });
    const many = await countedGraphql(large.publisher.http, query, { id: large.environmentId });
    const ten = await countedGraphql(large.publisher.http, query, { id: large.environmentId, first: 10 });

    expect(few.body.data.environment.activeGrants.map((grant: any) => grant.uuid)).toEqual(small.grantIds);
    expect(many.body.data.environment.activeGrants.map((grant: any) => grant.uuid)).toEqual(large.grantIds.slice(0, 500));
    expect(ten.body.data.environment.activeGrants.map((grant: any) => grant.uuid)).toEqual(large.grantIds.slice(0, 10));
    expect(many.statements).toBe(few.statements);
  });

  it("GraphQL capped lists refuse a first over 500 or below 0 with REQUEST_INVALID, naming the connection to page with", async () => {
    for (const [query, id, connection] of [
      ["query ($id: UUID!, $first: Int) { environment(id: $id) { activeGrants(first: $first) { uuid } } }", large.environmentId, "grants"],
      ["query ($id: UUID!, $first: Int) { account(id: $id) { toolReleaseList(first: $first) { uuid } } }", large.publisher.account.id, "toolReleases"],
    ] as const) {
      for (const first of [501, -1]) {
        const result = await large.publisher.http.graphql(query, { id, first });
        expect(result.status).toBe(400);
        expect(result.body.errors).toEqual([
          expect.objectContaining({
            message: expect.stringContaining(`page through ${connection}`),
            extensions: expect.objectContaining({ code: "REQUEST_INVALID" }),
          }),
        ]);
      }
    }
  });

  it("GraphQL environmentShareOffers answers at most 500 offers, the oldest first", async () => {
    const offered = await world.member();
    await offerEnvironments(service.db, large.publisher.account.id, offered.account.id, 501);
    const expected = await service.db.environmentShare.findMany({
      where: { accountId: offered.account.id, acceptedAt: null },
      orderBy: [{ createdAt: "asc" }, { environmentId: "asc" }],
      select: { environmentId: true },
    });
    const query = "query ($first: Int) { me { environmentShareOffers(first: $first) { environmentId } } }";

    const capped = (await offered.http.graphql(query, {})).body.data.me.environmentShareOffers;
    const three = (await offered.http.graphql(query, { first: 3 })).body.data.me.environmentShareOffers;
    const tooMany = await offered.http.graphql(query, { first: 501 });

    expect(expected).toHaveLength(501);
    expect(capped).toEqual(expected.slice(0, 500));
    expect(three).toEqual(expected.slice(0, 3));
    expect(tooMany.body.errors?.[0]?.extensions?.code).toBe("REQUEST_INVALID");
  });
});
