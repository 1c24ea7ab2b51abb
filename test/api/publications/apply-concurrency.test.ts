// The apply extension under concurrency: applies racing for one coordinate leave exactly one
// non-superseded release; every loser is told so (409 CONCURRENT_UPDATE) or sees the winner (noChange).
import { afterAll, beforeAll, expect, it } from "vitest";
import { definitionFor } from "../../fixtures/definitions/index.js";
import type { HttpResult } from "../../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type World } from "../../helpers/world.js";
import { allReleasesAt, body, currentReleasesAt, otherContent, paths, publication, sharedEnvironment, uniqueName } from "./support.js";

const PARALLEL = 8;

/** What each racing request got: "publish", "noChange", "supersede", or an error code. */
const outcomeOf = (result: HttpResult) => (result.status === 200 ? (result.body.publicationPlan[0].action as string) : `${result.status} ${result.body.code}`);

describeEachDatabase("POST /v1/envs/{environment_id}/tool-middlewares/apply: concurrent applies", (provider) => {
  let service: TestService;
  let world: World;
  const race = (environmentId: string, bodies: unknown[]) => Promise.all(bodies.map((request) => world.owner.http.post(paths.apply(environmentId), request)));

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it(`publishes one coordinate once when ${PARALLEL} applies race with the same content; the others see noChange or 409 CONCURRENT_UPDATE`, async () => {
    const name = uniqueName("race");
    const outcomes = (
      await race(
        world.environment.id,
        Array.from({ length: PARALLEL }, () => body({ publications: [publication(definitionFor(name, "1.0.0"))] })),
      )
    ).map(outcomeOf);
    expect(outcomes.filter((outcome) => outcome === "publish")).toHaveLength(1);
    for (const outcome of outcomes.filter((outcome) => outcome !== "publish")) expect(["noChange", "409 CONCURRENT_UPDATE"]).toContain(outcome);
    expect(await allReleasesAt(service, world.owner, name, "1.0.0")).toHaveLength(1);
  });

  it(`keeps one non-superseded release when ${PARALLEL} applies race with different content for a mutable coordinate`, async () => {
    const name = uniqueName("race");
    const outcomes = (
      await race(
        world.environment.id,
        Array.from({ length: PARALLEL }, () => body({ publications: [publication(otherContent(definitionFor(name, "1.0.0")))] })),
      )
    ).map(outcomeOf);
    const winners = outcomes.filter((outcome) => outcome === "publish" || outcome === "supersede");
    expect(outcomes.filter((outcome) => outcome === "publish")).toHaveLength(1);
    for (const outcome of outcomes) expect(["publish", "supersede", "409 CONCURRENT_UPDATE"]).toContain(outcome);
    const current = await currentReleasesAt(service, world.owner, name, "1.0.0");
    expect(current).toHaveLength(1);
    expect(current[0]!.lifecycle).toBe("published");
    // Every successful apply inserted one release; all but the last are superseded.
    expect(await allReleasesAt(service, world.owner, name, "1.0.0")).toHaveLength(winners.length);
  });

  it(`publishes once in a versionCheck environment when ${PARALLEL} applies race with different content; the others get 409`, async () => {
    const environment = await sharedEnvironment(world, { versionCheck: true });
    const name = uniqueName("race");
    const outcomes = (
      await race(
        environment.id,
        Array.from({ length: PARALLEL }, () => body({ publications: [publication(otherContent(definitionFor(name, "1.0.0")))] })),
      )
    ).map(outcomeOf);
    expect(outcomes.filter((outcome) => outcome === "publish")).toHaveLength(1);
    for (const outcome of outcomes.filter((outcome) => outcome !== "publish")) {
      expect(["409 TOOL_RELEASE_IMMUTABLE_CONFLICT", "409 CONCURRENT_UPDATE"]).toContain(outcome);
    }
    expect(await allReleasesAt(service, world.owner, name, "1.0.0")).toHaveLength(1);
  });
});
