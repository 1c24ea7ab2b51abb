// The joins of the shared live delivery: a subscriber that resumes from an old event while others are
// live and changes keep coming catches up on its own, then joins its environment's reader, and
// receives every event once, in order; a subscriber that does not take its events leaves the reader
// past a bounded queue, catches up on its own once it reads again, and misses nothing either.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ToolRelease } from "../../../src/db/generated/sqlite/client.js";
import { createGrant, deleteGrant } from "../../../src/domain/grants.js";
import { hashSecret } from "../../../src/domain/tokens.js";
import { MAX_QUEUED_EVENTS } from "../../../src/graphql/live-events/follower.js";
import { liveEventsOf } from "../../../src/graphql/live-events/live-events.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { subscribeOverSse } from "../../helpers/sse.js";
import { createWorld, type World } from "../../helpers/world.js";
import { uniqueName } from "../publications/support.js";
import { ENVIRONMENT_EVENTS, nextEvents } from "./support.js";

describeEachDatabase("live subscribers catching up and joining", (provider) => {
  let service: TestService;
  let world: World;
  let release: ToolRelease;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    release = await world.publish(world.owner, uniqueName("catch-up"), "1.0.0");
  });
  afterAll(() => service?.stopAndDrop());

  const newestId = async () => (await service.db.changeEvent.findFirstOrThrow({ where: { environmentId: world.environment.id }, orderBy: { id: "desc" } })).id;
  const eventIdsAfter = async (after: string) =>
    (await service.db.changeEvent.findMany({ where: { environmentId: world.environment.id, id: { gt: after } }, orderBy: { id: "asc" } })).map(
      (event) => event.id,
    );

  /** `cycles` grants created and deleted through the domain, one after the other: two events each. */
  async function grantCycles(cycles: number, between?: (cycle: number) => Promise<void>): Promise<void> {
    for (let cycle = 0; cycle < cycles; cycle += 1) {
      const grant = await createGrant(service.db, world.owner.account, world.environment.id, { release: { type: "ById", releaseId: release.id } });
      await deleteGrant(service.db, world.owner.account, grant.id);
      await between?.(cycle);
    }
  }

  it("subscribers resuming from an old event while changes keep coming receive every event after it once, in order", async () => {
    const start = await newestId();
    const live = await subscribeOverSse(service.url, world.viewer.token, ENVIRONMENT_EVENTS, { environmentId: world.environment.id, after: start });
    await grantCycles(5);
    const resumeFrom = await newestId();
    // Each joins while the changes go on: it reads what it missed, then what the shared reader hands out.
    const resumed: Awaited<ReturnType<typeof subscribeOverSse>>[] = [];
    await grantCycles(20, async (cycle) => {
      if (cycle % 4 === 0)
        resumed.push(await subscribeOverSse(service.url, world.deployer.token, ENVIRONMENT_EVENTS, { environmentId: world.environment.id, after: resumeFrom }));
    });
    const all = await eventIdsAfter(start);
    const sinceResume = await eventIdsAfter(resumeFrom);
    expect((await nextEvents(live, all.length)).map((event) => event.uuid)).toEqual(all);
    for (const stream of resumed) expect((await nextEvents(stream, sinceResume.length)).map((event) => event.uuid)).toEqual(sinceResume);

    // And they go on together: the next change reaches each once.
    const before = await newestId();
    await grantCycles(1);
    const next = await eventIdsAfter(before);
    for (const stream of [live, ...resumed]) expect((await nextEvents(stream, next.length)).map((event) => event.uuid)).toEqual(next);
    for (const stream of [live, ...resumed]) stream.close();
  }, 120_000);

  it(`a subscriber that takes no event while more than ${MAX_QUEUED_EVENTS} are committed still receives every one once, in order`, async () => {
    const start = await newestId();
    const subscriber = { secretHash: hashSecret(world.viewer.token), accountId: world.viewer.account.id };
    const slow = liveEventsOf(service.db).follow({ environmentId: world.environment.id }, subscriber, start);
    const prompt = liveEventsOf(service.db).follow({ environmentId: world.environment.id }, subscriber, start);
    const received = { slow: [] as string[], prompt: [] as string[] };
    const events = Math.ceil((MAX_QUEUED_EVENTS + 50) / 2) * 2;

    // The slow one takes its first event and then nothing while the rest are committed; the prompt one takes each as it comes.
    const firstOfSlow = slow.next();
    const takingPromptly = (async () => {
      for await (const event of prompt) {
        received.prompt.push(event.id);
        if (received.prompt.length === events) break;
      }
    })();
    await grantCycles(events / 2);
    received.slow.push((await firstOfSlow).value!.id);
    await takingPromptly;
    for await (const event of slow) {
      received.slow.push(event.id);
      if (received.slow.length === events) break;
    }
    const committed = await eventIdsAfter(start);
    expect(committed).toHaveLength(events);
    expect(received.prompt).toEqual(committed);
    expect(received.slow).toEqual(committed);
  }, 120_000);
});
