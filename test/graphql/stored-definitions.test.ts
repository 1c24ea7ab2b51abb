// Definitions are read by content: a release's text is loaded the first time its digest is met, in
// one statement for the whole request, and later reads select no definition at all. REST bodies
// copy the stored text in place of the definition.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canonicalJson, metadataDigest, type MiddlewareDefinition } from "../../src/domain/definitions/index.js";
import { createGrant } from "../../src/domain/grants.js";
import { DefinitionCache } from "../../src/graphql/stored-definitions.js";
import { paths } from "../api/grants/support.js";
import { definitionFor } from "../fixtures/definitions/index.js";
import { scrape, valueOf } from "../helpers/metrics.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";
import { startCountingService, type CountingService } from "./counting-service.js";

/** SELECT statements that read the stored definition column. */
const definitionReads = (statements: string[]) => statements.filter((sql) => /^SELECT .*\bdefinition[`"]/s.test(sql.split(/\sFROM\s/)[0]!));

describeEachDatabase("stored definitions, read by content", (provider) => {
  let service: CountingService;
  let world: World;
  let sequence = 0;
  const uniqueName = (stem: string) => `${stem}-${provider}-${(sequence += 1)}`;

  beforeAll(async () => {
    service = await startCountingService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  async function counted(path: string) {
    let result!: Awaited<ReturnType<typeof world.owner.http.get>>;
    const { statements } = await service.countQueries(async () => {
      result = await world.owner.http.get(path);
    });
    expect(result.status).toBe(200);
    return { result, definitionReads: definitionReads(statements) };
  }

  it("loads the definitions a list meets for the first time in one statement, and none on the next read", async () => {
    const environment = await world.environmentOf(world.owner);
    for (let index = 0; index < 3; index++) {
      const release = await world.publish(world.owner, uniqueName("listed"), "1.0.0");
      await createGrant(service.db, world.owner.account, environment.id, { release: { type: "ById", releaseId: release.id } });
    }
    const first = await counted(paths.grants(environment.id));
    const second = await counted(paths.grants(environment.id));

    expect(first.definitionReads).toHaveLength(1);
    expect(second.definitionReads).toHaveLength(0);
    expect(second.result.text).toBe(first.result.text);
    expect((first.result.body as { values: unknown[] }).values).toHaveLength(3);
    expect(first.result.text).toBe(JSON.stringify(first.result.body));
  });

  it("serves a release's presented surface from the stored text once its digest is known", async () => {
    const name = uniqueName("read");
    const release = await world.publish(world.owner, name, "2.0.0");
    const first = await counted(`/v1/tool-releases/${release.id}`);
    const second = await counted(`/v1/tool-releases/${release.id}`);

    expect(first.definitionReads).toHaveLength(1);
    expect(second.definitionReads).toHaveLength(0);
    expect((second.result.body as { definition: unknown }).definition).toEqual(definitionFor(name, "2.0.0").scope.value.presented);
    expect(second.result.text).toBe(JSON.stringify(second.result.body));
  });

  it("serves GraphQL the same parsed definitions, loading those it has not met", async () => {
    const name = uniqueName("graph");
    const release = await world.publish(world.owner, name, "3.0.0");
    const query = "query ($id: UUID!) { toolRelease(id: $id) { middlewareDefinition definition definitionSummary { name } } }";
    const { body } = await world.owner.http.graphql(query, { id: release.id });
    expect(body.errors).toBeUndefined();
    expect(body.data.toolRelease.middlewareDefinition).toEqual(definitionFor(name, "3.0.0"));
    expect(body.data.toolRelease.definition).toEqual(definitionFor(name, "3.0.0").scope.value.presented);
    expect(body.data.toolRelease.definitionSummary.name).toBe(name);
  });

  it("sends a grant view's definition as the stored text, byte for byte: the canonical JSON the metadataDigest is taken of", async () => {
    const name = uniqueName("verbatim");
    const release = await world.publish(world.owner, name, "1.0.0");
    const environment = await world.environmentOf(world.owner);
    const grant = await createGrant(service.db, world.owner.account, environment.id, { release: { type: "ById", releaseId: release.id } });
    const stored = await service.db.toolRelease.findUniqueOrThrow({ where: { id: release.id }, select: { definition: true, metadataDigest: true } });

    const view = await counted(paths.grant(grant.id));
    expect(view.result.text).toContain(`"definition":${stored.definition},`);
    expect(canonicalJson(JSON.parse(stored.definition))).toBe(stored.definition);
    expect(metadataDigest(JSON.parse(stored.definition) as MiddlewareDefinition)).toBe(stored.metadataDigest);
    expect((view.result.body as { release: { definition: unknown } }).release.definition).toEqual(definitionFor(name, "1.0.0"));
  });

  it("answers a release whose stored text holds no canonical presented part with the parsed surface", async () => {
    // Stored texts are canonical JSON; one that is not (here: indented) has no run of bytes that is
    // the surface's serialization, so the surface is parsed and serialized instead.
    const name = uniqueName("indented");
    const release = await world.publish(world.owner, name, "1.0.0");
    const definition = definitionFor(name, "1.0.0");
    const text = JSON.stringify(definition, null, 1);
    // Digests name contents: a text is kept under its own digest.
    const digest = `sha256:${createHash("sha256").update(text).digest("hex")}`;
    await service.db.toolRelease.update({ where: { id: release.id }, data: { definition: text, metadataDigest: digest } });

    const read = await counted(`/v1/tool-releases/${release.id}`);
    expect((read.result.body as { definition: unknown }).definition).toEqual(definition.scope.value.presented);
    expect(read.result.text).toBe(JSON.stringify(read.result.body));
  });
});

describeEachDatabase("TOOLGATE_DEFINITION_CACHE_MB=0", (provider) => {
  let service: CountingService;
  let world: World;

  beforeAll(async () => {
    service = await startCountingService(provider, { definitionCacheBytes: 0 });
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("loads the definition for every read, and answers the same bytes", async () => {
    const release = await world.publish(world.owner, `uncached-${provider}`, "1.0.0");
    const answers: string[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      let text = "";
      const { statements } = await service.countQueries(async () => {
        const result = await world.owner.http.get(`/v1/tool-releases/${release.id}`);
        expect(result.status).toBe(200);
        text = result.text;
      });
      expect(definitionReads(statements)).toHaveLength(1);
      answers.push(text);
    }
    expect(new Set(answers).size).toBe(1);
  });
});

describeEachDatabase("the definition cache on /metrics", (provider) => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  async function cacheMetrics() {
    const { samples } = await scrape(service.metricsUrl);
    const count = (outcome: string) => valueOf(samples, "toolgate_definition_cache_lookups_total", { outcome }) ?? 0;
    return { hit: count("hit"), miss: count("miss"), bytes: valueOf(samples, "toolgate_definition_cache_bytes") ?? 0 };
  }

  it("counts a release's first read as a miss and the next as a hit, and holds its text's bytes", async () => {
    const release = await world.publish(world.owner, `counted-${provider}`, "1.0.0");
    const stored = await service.db.toolRelease.findUniqueOrThrow({ where: { id: release.id }, select: { definition: true } });
    const before = await cacheMetrics();
    // Another path each time, so that the read cache does not answer the second read.
    expect((await world.owner.http.get(`/v1/tool-releases/${release.id}`)).status).toBe(200);
    const afterFirst = await cacheMetrics();
    expect((await world.owner.http.get(`/v1/tool-releases/${release.id}?second`)).status).toBe(200);
    const afterSecond = await cacheMetrics();

    expect(afterFirst.miss - before.miss).toBe(1);
    expect(afterFirst.hit - before.hit).toBe(0);
    expect(afterSecond.hit - afterFirst.hit).toBe(1);
    expect(afterSecond.miss - afterFirst.miss).toBe(0);
    expect(afterFirst.bytes - before.bytes).toBe(Buffer.byteLength(stored.definition, "utf8"));
  });
});

describe("the definition cache", () => {
  const text = (fill: string) => Buffer.from(JSON.stringify({ fill: fill.repeat(500) }), "utf8");

  it("keeps texts within its bytes, the least recently used leaving first", () => {
    const cache = new DefinitionCache(800);
    const first = cache.remember("sha256:first", text("a"));
    cache.remember("sha256:second", text("b"));
    expect(cache.get("sha256:first")).toBeUndefined();
    expect(cache.get("sha256:second")?.utf8.toString("utf8")).toContain("bbb");
    expect(first.utf8.toString("utf8")).toContain("aaa");
  });

  it("answers the text it keeps when the same digest is read again", () => {
    const cache = new DefinitionCache(4096);
    const kept = cache.remember("sha256:same", text("a"));
    expect(cache.remember("sha256:same", text("a"))).toBe(kept);
  });

  it("keeps nothing at 0 bytes", () => {
    const cache = new DefinitionCache(0);
    cache.remember("sha256:none", text("a"));
    expect(cache.get("sha256:none")).toBeUndefined();
  });
});
