// The read cache (src/http/api/read-cache.ts): a repeated query is answered from memory only while
// nothing its reader can see has changed since it was computed, through this process or any other;
// other accounts' changes leave it alone; answers depend on who asks; errors are never kept; the
// memory it takes is bounded.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Environment, ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { pruneEventsBefore } from "../../src/domain/events.js";
import { createGrant } from "../../src/domain/grants.js";
import { depublishRelease } from "../../src/domain/releases.js";
import { serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import { client } from "../helpers/http.js";
import { scrape, valueOf } from "../helpers/metrics.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";
import { byId, paths, sharedEnvironment, uniqueName } from "./grants/support.js";

const NESTED = "query ($id: UUID!) { environment(id: $id) { name activeGrants { uuid release { name version owner { name } } } } }";

/** The read cache's lookup counters on `service`'s /metrics. */
async function lookups(service: TestService): Promise<Record<"hit" | "miss" | "uncacheable", number>> {
  const { samples } = await scrape(service.metricsUrl);
  const count = (outcome: string) => valueOf(samples, "toolgate_read_cache_lookups_total", { outcome }) ?? 0;
  return { hit: count("hit"), miss: count("miss"), uncacheable: count("uncacheable") };
}

const grantIdsOf = (list: { body: { values: { grant: { id: string } }[] } }) => list.body.values.map((view) => view.grant.id);
const nestedGrantIdsOf = (result: { body: { data?: { environment: { activeGrants: { uuid: string }[] } } } }) =>
  result.body.data!.environment.activeGrants.map((grant) => grant.uuid);

describeEachDatabase("read cache", (provider) => {
  let service: TestService;
  let world: World;
  let replica: ServingToolgate;
  let environment: Environment;

  /** A new active grant of a new release in `environment`. */
  const grantOf = async (): Promise<{ grantId: string; release: ToolRelease }> => {
    const release = await world.publish(world.owner, uniqueName("cached"), "1.0.0");
    const grant = await createGrant(service.db, world.owner.account, environment.id, { release: byId(release) });
    return { grantId: grant.id, release };
  };

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    environment = await sharedEnvironment(world);
    // Another process on the same database, as a second replica (or the CLI on a SQLite file) is.
    replica = await serveToolgate({ TOOLGATE_DATABASE_URL: service.databaseUrl, TOOLGATE_ADMIN_TOKEN: service.adminToken });
  }, 120_000);
  afterAll(async () => {
    await replica?.ensureDead();
    await service?.stopAndDrop();
  });

  it("answers a repeated read from memory with the same bytes and ETag, on /v1 and /graphql", async () => {
    const { grantId } = await grantOf();
    const before = await lookups(service);
    const first = await world.viewer.http.get(paths.grant(grantId));
    const second = await world.viewer.http.get(paths.grant(grantId));
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);
    // The ETag follows the body (docs/api.md; `fetch` asked for gzip: a coding suffix), from memory or not, in this process or another.
    expect(second.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{43}(-gzip)?"$/);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    const fromReplica = await client(replica.url, world.viewer.token).get(paths.grant(grantId));
    expect(fromReplica.text).toBe(first.text);
    expect(fromReplica.headers.get("etag")).toBe(first.headers.get("etag"));
    const firstNested = await world.viewer.http.graphql(NESTED, { id: environment.id });
    const secondNested = await world.viewer.http.graphql(NESTED, { id: environment.id });
    expect(nestedGrantIdsOf(firstNested)).toContain(grantId);
    expect(secondNested.text).toBe(firstNested.text);
    const after = await lookups(service);
    expect(after.hit - before.hit).toBe(2);
    expect(after.miss - before.miss).toBe(2);
  });

  it("keeps answers apart by what the request asks for: media type, GET or POST", async () => {
    const query = "{ me { email } }";
    const asked = (accept: string) => world.owner.http.request("POST", "/graphql", { query }, { accept });
    for (const accept of ["application/json", "application/graphql-response+json", "application/json"]) {
      const answer = await asked(accept);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toMatch(new RegExp(`^${accept.replace("+", "\\+")}`));
    }
    const before = await lookups(service);
    const byGet = () => world.owner.http.request("GET", `/graphql?query=${encodeURIComponent(query)}`, undefined, { accept: "application/json" });
    const [first, second] = [await byGet(), await byGet()];
    expect(second.text).toBe(first.text);
    expect(first.body).toEqual({ data: { me: { email: world.owner.account.email } } });
    const after = await lookups(service);
    expect([after.miss - before.miss, after.hit - before.hit]).toEqual([1, 1]);
    // Each kept answer's ETag is its own body's SHA-256, even when answers are kept and hashed one after another.
    for (const other of ["{ me { name } }", "{ me { plan } }"]) {
      const answer = await world.owner.http.request("GET", `/graphql?query=${encodeURIComponent(other)}`, undefined, { accept: "application/json" });
      expect(answer.headers.get("etag")).toMatch(new RegExp(`^"${createHash("sha256").update(answer.text).digest("base64url")}(-gzip)?"$`));
    }
  });

  it("sees a change committed in this process at the next read", async () => {
    const { grantId } = await grantOf();
    const list = () => world.viewer.http.get(paths.grants(environment.id));
    expect(grantIdsOf(await list())).toContain(grantId);
    expect(grantIdsOf(await list())).toContain(grantId);
    expect(nestedGrantIdsOf(await world.viewer.http.graphql(NESTED, { id: environment.id }))).toContain(grantId);
    expect((await world.owner.http.delete(paths.grant(grantId))).status).toBe(204);
    expect(grantIdsOf(await list())).not.toContain(grantId);
    expect(nestedGrantIdsOf(await world.viewer.http.graphql(NESTED, { id: environment.id }))).not.toContain(grantId);
    expect((await world.viewer.http.get(paths.grant(grantId))).status).toBe(404);
  });

  it("sees a change committed by another process at the next read, without waiting", async () => {
    const { grantId } = await grantOf();
    const here = world.viewer.http;
    const there = client(replica.url, world.owner.token);
    const list = () => here.get(paths.grants(environment.id));
    expect(grantIdsOf(await list())).toContain(grantId);
    expect(grantIdsOf(await list())).toContain(grantId);
    expect((await there.delete(paths.grant(grantId))).status).toBe(204);
    expect(grantIdsOf(await list())).not.toContain(grantId);
    expect(nestedGrantIdsOf(await here.graphql(NESTED, { id: environment.id }))).not.toContain(grantId);
    expect((await there.post(paths.restore(grantId))).status).toBe(200);
    expect(grantIdsOf(await list())).toContain(grantId);
    expect(nestedGrantIdsOf(await here.graphql(NESTED, { id: environment.id }))).toContain(grantId);
  });

  it("never answers a read from before a change acknowledged by another process, while 8 clients read the same list", async () => {
    const grants = await Promise.all(Array.from({ length: 4 }, () => grantOf()));
    const there = client(replica.url, world.owner.token);
    const ids = grants.map((granted) => granted.grantId);
    expect(grantIdsOf(await world.viewer.http.get(paths.grants(environment.id)))).toEqual(expect.arrayContaining(ids));
    expect(nestedGrantIdsOf(await world.viewer.http.graphql(NESTED, { id: environment.id }))).toEqual(expect.arrayContaining(ids));
    let reading = true;
    const readers = Array.from({ length: 8 }, async () => {
      while (reading) expect((await world.viewer.http.get(paths.grants(environment.id))).status).toBe(200);
    });
    try {
      for (const { grantId } of grants) {
        expect((await there.delete(paths.grant(grantId))).status).toBe(204);
        expect(grantIdsOf(await world.viewer.http.get(paths.grants(environment.id)))).not.toContain(grantId);
        expect(nestedGrantIdsOf(await world.viewer.http.graphql(NESTED, { id: environment.id }))).not.toContain(grantId);
      }
    } finally {
      reading = false;
      await Promise.all(readers);
    }
  });

  it("computes a read that 20 clients ask for at once, right after a change, once and shares it", async () => {
    const { grantId } = await grantOf();
    const before = await lookups(service);
    const answers = await Promise.all(Array.from({ length: 20 }, () => world.viewer.http.graphql(NESTED, { id: environment.id })));
    const after = await lookups(service);
    expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
    expect(nestedGrantIdsOf(answers[0]!)).toContain(grantId);
    expect(after.hit + after.miss - before.hit - before.miss).toBe(20);
    // The first computes it; the others wait for it (a few may come after it was kept: hits too).
    expect(after.miss - before.miss).toBeLessThanOrEqual(2);
  });

  it("keeps an account's answers while other accounts write, through this process and another", async () => {
    const { grantId } = await grantOf();
    const reads = () => [
      world.viewer.http.get(paths.grants(environment.id)),
      world.viewer.http.get(paths.grant(grantId)),
      world.viewer.http.graphql(NESTED, { id: environment.id }),
    ];
    const first = await Promise.all(reads());
    const other = await world.member();
    const othersEnvironment = await world.environmentOf(other);
    const before = await lookups(service);
    for (const writer of [other.http, client(replica.url, other.token)]) {
      const release = await world.publish(other, uniqueName("elsewhere"), "1.0.0");
      expect((await writer.post(paths.grants(othersEnvironment.id), { release: byId(release) })).status).toBe(200);
      const again = await Promise.all(reads());
      expect(again.map((answer) => answer.text)).toEqual(first.map((answer) => answer.text));
    }
    const after = await lookups(service);
    expect(after.miss - before.miss).toBe(0);
    expect(after.hit - before.hit).toBe(6);
  });

  it("forgets an account's answers when another account changes what it can see: a granted release de-published by its owner", async () => {
    const release = await world.publish(world.stranger, uniqueName("borrowed"), "1.0.0");
    const grant = await createGrant(service.db, world.owner.account, environment.id, { release: byId(release) });
    const list = () => world.viewer.http.get(paths.grants(environment.id));
    expect(grantIdsOf(await list())).toContain(grant.id);
    expect(nestedGrantIdsOf(await world.viewer.http.graphql(NESTED, { id: environment.id }))).toContain(grant.id);
    expect(grantIdsOf(await list())).toContain(grant.id);
    await depublishRelease(service.db, world.stranger.account, release.id);
    expect(grantIdsOf(await list())).not.toContain(grant.id);
    expect(nestedGrantIdsOf(await world.viewer.http.graphql(NESTED, { id: environment.id }))).not.toContain(grant.id);
  });

  it("answers each account as itself: a stranger never gets what the owner was answered", async () => {
    const owners = await world.owner.http.graphql(NESTED, { id: environment.id });
    expect(owners.body.data?.environment).not.toBeNull();
    const strangers = await world.stranger.http.graphql(NESTED, { id: environment.id });
    expect(strangers.body.data?.environment ?? null).toBeNull();
    const ownerView = await world.owner.http.get(paths.grants(environment.id));
    expect(ownerView.status).toBe(200);
    expect((await world.stranger.http.get(paths.grants(environment.id))).status).toBe(404);
  });

  it("never keeps an answer with errors", async () => {
    const before = await lookups(service);
    for (let attempt = 0; attempt < 3; attempt++) expect((await world.stranger.http.get(paths.grants(environment.id))).status).toBe(404);
    const after = await lookups(service);
    expect(after.hit - before.hit).toBe(0);
    expect(after.miss - before.miss).toBe(3);
  });

  it("does not cache mutations, nor look them up", async () => {
    const before = await lookups(service);
    const { grantId } = await grantOf();
    expect((await world.owner.http.delete(paths.grant(grantId))).status).toBe(204);
    const restore = "# restores the grant\n mutation ($id: UUID!) { restoreGrant(id: $id) { uuid } }";
    expect((await world.owner.http.graphql(restore, { id: grantId })).body.errors).toBeUndefined();
    const after = await lookups(service);
    expect(after.uncacheable - before.uncacheable).toBe(2);
    expect(after.hit + after.miss - before.hit - before.miss).toBe(0);
  });

  it("does not serve events that retention pruned", async () => {
    const events = () => world.owner.http.get(`/v1/envs/${environment.id}/events`);
    const before = await events();
    expect(before.status).toBe(200);
    expect(before.body.values.length).toBeGreaterThan(0);
    expect((await events()).text).toBe(before.text);
    await pruneEventsBefore(service.db, new Date(Date.now() + 60_000));
    const after = await events();
    expect(after.status).toBe(200);
    expect(after.body.values).toEqual([]);
  });
});

describeEachDatabase("read cache settings", (provider) => {
  const services: TestService[] = [];
  afterAll(() => Promise.all(services.map((service) => service.stopAndDrop())));

  const serviceWith = async (readCacheBytes: number, definitionCacheBytes?: number) => {
    const service = await startTestService(provider, { readCacheBytes, ...(definitionCacheBytes === undefined ? {} : { definitionCacheBytes }) });
    services.push(service);
    return { service, world: await createWorld(service) };
  };

  it("TOOLGATE_READ_CACHE_MB=0 executes every read", async () => {
    const { service, world } = await serviceWith(0);
    const before = await lookups(service);
    for (let attempt = 0; attempt < 3; attempt++) expect((await world.owner.http.graphql("{ me { email } }")).status).toBe(200);
    const after = await lookups(service);
    expect(after.hit - before.hit).toBe(0);
    expect(after.uncacheable - before.uncacheable).toBe(3);
  });

  it("keeps its entries within the configured memory, and answers what it cannot keep", async () => {
    const limit = 8192;
    const { service, world } = await serviceWith(limit);
    // 200 different documents, each answer kept with its key (~1 KB): many times the limit.
    for (let index = 0; index < 200; index++) {
      const result = await world.owner.http.graphql(`query Q${index} { me { email name } }`);
      expect(result.body.data).toEqual({ me: { email: world.owner.account.email, name: "owner" } });
    }
    const { samples } = await scrape(service.metricsUrl);
    const bytes = valueOf(samples, "toolgate_read_cache_bytes")!;
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(limit);
    // A release's definition as a GraphQL value (bytes of the answer's own) is over a quarter of the limit: answered, never kept.
    const release = await world.publish(world.owner, uniqueName("large"), "1.0.0");
    const before = await lookups(service);
    for (let attempt = 0; attempt < 2; attempt++) {
      const answer = await world.owner.http.graphql("query ($id: UUID!) { toolRelease(id: $id) { definition } }", { id: release.id });
      expect(answer.status).toBe(200);
      expect(answer.text.length).toBeGreaterThan(limit / 4);
    }
    const after = await lookups(service);
    expect(after.hit - before.hit).toBe(0);
    expect(after.miss - before.miss).toBe(2);
  });

  it("keeps a REST answer's stored definition by name, not its bytes", async () => {
    const { service, world } = await serviceWith(8192);
    const first = await world.publish(world.owner, uniqueName("named"), "1.0.0");
    const read = (release: { id: string }) => world.owner.http.get(`/v1/tool-releases/${release.id}`);
    const firstAnswer = await read(first);
    expect(firstAnswer.status).toBe(200);
    // The answer is mostly its definition, over a quarter of the cache, yet kept: it holds only its own bytes.
    expect(firstAnswer.text.length).toBeGreaterThan(8192 / 4);
    const { samples } = await scrape(service.metricsUrl);
    expect(valueOf(samples, "toolgate_read_cache_bytes")!).toBeLessThan(firstAnswer.text.length);
    const before = await lookups(service);
    const again = await read(first);
    expect(again.text).toBe(firstAnswer.text);
    expect(again.headers.get("etag")).toBe(firstAnswer.headers.get("etag"));
    expect((await lookups(service)).hit - before.hit).toBe(1);
  });

  it("computes a kept answer again once the definition it names has left the definition cache", async () => {
    const names = [uniqueName("evicted"), uniqueName("evicted")];
    // How much one definition takes in the definition cache, with the same name.
    const probe = await serviceWith(0);
    const published = await probe.world.publish(probe.world.owner, names[0]!, "1.0.0");
    expect((await probe.world.owner.http.get(`/v1/tool-releases/${published.id}`)).status).toBe(200);
    const definitionBytes = valueOf((await scrape(probe.service.metricsUrl)).samples, "toolgate_definition_cache_bytes")!;
    expect(definitionBytes).toBeGreaterThan(0);
    // Room for one definition: reading the second release's pushes the first one's out.
    const { service, world } = await serviceWith(65536, Math.round(definitionBytes * 1.5));
    const [one, other] = [await world.publish(world.owner, names[0]!, "1.0.0"), await world.publish(world.owner, names[1]!, "1.0.0")];
    const read = (release: { id: string }) => world.owner.http.get(`/v1/tool-releases/${release.id}`);
    const before = await lookups(service);
    const first = await read(one);
    expect((await read(one)).text).toBe(first.text);
    expect((await read(other)).status).toBe(200);
    const recomputed = await read(one);
    expect(recomputed.text).toBe(first.text);
    expect(recomputed.headers.get("etag")).toBe(first.headers.get("etag"));
    expect((await read(one)).text).toBe(first.text);
    const after = await lookups(service);
    expect({ hits: after.hit - before.hit, misses: after.miss - before.miss }).toEqual({ hits: 2, misses: 3 });
  });
});
