// Definitions are read by content: a release's text is loaded the first time its digest is met, in
// one statement for the whole request, and later reads select no definition at all. REST bodies
// copy the stored text in place of the definition.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { canonicalJson, metadataDigest, type MiddlewareDefinition } from "../../src/domain/definitions/index.js";
import { createGrant } from "../../src/domain/grants.js";
import { paths } from "../api/grants/support.js";
import { definitionFor } from "../fixtures/definitions/index.js";
import { describeEachDatabase } from "../helpers/service.js";
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
    // Digests name contents: the cache is shared by every service in the process.
    const digest = `sha256:${createHash("sha256").update(text).digest("hex")}`;
    await service.db.toolRelease.update({ where: { id: release.id }, data: { definition: text, metadataDigest: digest } });

    const read = await counted(`/v1/tool-releases/${release.id}`);
    expect((read.result.body as { definition: unknown }).definition).toEqual(definition.scope.value.presented);
    expect(read.result.text).toBe(JSON.stringify(read.result.body));
  });
});
