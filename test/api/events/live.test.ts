// Subscription.environmentEvents over Server-Sent Events: live delivery in order, resuming with
// `after`, authorization ending the stream, with raw fetch and with the graphql-sse client.
import { createClient } from "graphql-sse";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ToolRelease } from "../../../src/db/generated/sqlite/client.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { subscribeOverSse } from "../../helpers/sse.js";
import { ENVIRONMENT_EVENTS, nextEvents } from "./support.js";
import { createWorld, type Member, type World } from "../../helpers/world.js";
import { uniqueName } from "../publications/support.js";

describeEachDatabase("Subscription.environmentEvents over SSE", (provider) => {
  let service: TestService;
  let world: World;
  let release: ToolRelease;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    release = await world.publish(world.owner, uniqueName("live"), "1.0.0");
  });
  afterAll(() => service?.stopAndDrop());

  const environmentEventIds = async (environmentId: string, after: string) =>
    (await service.db.changeEvent.findMany({ where: { environmentId, id: { gt: after } }, orderBy: { id: "asc" } })).map((event) => event.id);
  const newestId = async () => (await service.db.changeEvent.findFirstOrThrow({ orderBy: { id: "desc" } })).id;

  /** Create, delete and restore a grant of `release` in the world's environment: three events. */
  async function grantCycle(member: Member): Promise<void> {
    const environmentId = world.environment.id;
    const created = await member.http.post(`/v1/envs/${environmentId}/tool-middlewares`, { release: { type: "ById", releaseId: release.id } });
    expect(created.status, created.text).toBe(200);
    expect((await member.http.delete(`/v1/environment-tool-middleware-grants/${created.body.grant.id}`)).status).toBe(204);
    expect((await member.http.post(`/v1/environment-tool-middleware-grants/${created.body.grant.id}/restore`)).status).toBe(200);
    expect((await member.http.delete(`/v1/environment-tool-middleware-grants/${created.body.grant.id}`)).status).toBe(204);
  }

  it("a viewer receives new events in order over raw fetch SSE, and resumes with after without a gap", async () => {
    const environmentId = world.environment.id;
    const before = await newestId();
    const live = await subscribeOverSse(service.url, world.viewer.token, ENVIRONMENT_EVENTS, { environmentId });
    expect({ status: live.status, contentType: live.contentType }).toEqual({ status: 200, contentType: expect.stringContaining("text/event-stream") });
    await grantCycle(world.deployer);
    const received = await nextEvents(live, 4);
    expect(received.map((event) => event.type)).toEqual(["GRANT_CREATED", "GRANT_DELETED", "GRANT_RESTORED", "GRANT_DELETED"]);
    expect(received.map((event) => event.uuid)).toEqual(await environmentEventIds(environmentId, before));
    expect(received[0]).toMatchObject({ environmentId, actorAccountId: world.deployer.account.id, state: { releaseId: release.id } });
    live.close();

    // Missed while disconnected: four more; a reconnect with the last seen id gets them first, then live ones.
    const lastSeen = received.at(-1)!.uuid;
    await grantCycle(world.owner);
    const resumed = await subscribeOverSse(service.url, world.viewer.token, ENVIRONMENT_EVENTS, { environmentId, after: lastSeen });
    const missed = await nextEvents(resumed, 4);
    await grantCycle(world.deployer);
    const later = await nextEvents(resumed, 4);
    expect([...missed, ...later].map((event) => event.uuid)).toEqual(await environmentEventIds(environmentId, lastSeen));
    resumed.close();
  });

  it("the graphql-sse client receives the same events", async () => {
    const environmentId = world.environment.id;
    const after = await newestId();
    const sse = createClient({ url: `${service.url}/graphql`, headers: { authorization: `Bearer ${world.deployer.token}` }, retryAttempts: 0 });
    const iterator = sse.iterate<{ environmentEvents: { uuid: string; type: string } }>({ query: ENVIRONMENT_EVENTS, variables: { environmentId, after } });
    await grantCycle(world.owner);
    const received: string[] = [];
    for await (const result of iterator) {
      expect(result.errors).toBeUndefined();
      received.push(result.data!.environmentEvents.uuid);
      if (received.length === 4) break;
    }
    expect(received).toEqual(await environmentEventIds(environmentId, after));
    sse.dispose();
  });

  it("refuses strangers at subscribe time, and ends the stream when the subscriber's token is revoked", async () => {
    const refused = await subscribeOverSse(service.url, world.stranger.token, ENVIRONMENT_EVENTS, { environmentId: world.environment.id });
    const refusal = await refused.next();
    expect(refusal.data.errors[0].extensions.code).toBe("ENVIRONMENT_NOT_FOUND");
    refused.close();

    const second = await issueToken(world.viewer);
    const live = await subscribeOverSse(service.url, second.secret, ENVIRONMENT_EVENTS, { environmentId: world.environment.id });
    expect(live.status).toBe(200);
    const revoked = await world.viewer.http.graphql(`mutation ($id: UUID!) { revokeApiToken(id: $id) { revokedAt } }`, { id: second.id });
    expect(revoked.body.errors).toBeUndefined();
    const frame = await live.next();
    expect(frame.event).toBe("next");
    expect(frame.data.errors[0].extensions.code).toBe("AUTH_UNAUTHORIZED");
    expect((await live.next()).event).toBe("complete");
    live.close();
  });

  it("drops a stream whose client went away: toolgate_live_subscriptions falls back to what it was", async () => {
    const openStreams = async () => {
      const text = await (await fetch(`${service.url}/metrics`)).text();
      return Number(/^toolgate_live_subscriptions (\S+)$/m.exec(text)?.[1]);
    };
    const before = await openStreams();
    const streams = await Promise.all(
      Array.from({ length: 20 }, () => subscribeOverSse(service.url, world.viewer.token, ENVIRONMENT_EVENTS, { environmentId: world.environment.id })),
    );
    expect(streams.map((stream) => stream.status)).toEqual(streams.map(() => 200));
    await expect.poll(openStreams).toBe(before + 20);
    for (const stream of streams) stream.close();
    await expect.poll(openStreams, { timeout: 5000 }).toBe(before);
    // The service still serves streams afterwards.
    const live = await subscribeOverSse(service.url, world.viewer.token, ENVIRONMENT_EVENTS, { environmentId: world.environment.id });
    await grantCycle(world.deployer);
    expect((await nextEvents(live, 4)).map((event) => event.type)).toEqual(["GRANT_CREATED", "GRANT_DELETED", "GRANT_RESTORED", "GRANT_DELETED"]);
    live.close();
  });

  it("open streams complete when the service stops, without holding its drain", async () => {
    const stopping = await startTestService(provider);
    const stoppingWorld = await createWorld(stopping);
    const live = await subscribeOverSse(stopping.url, stoppingWorld.viewer.token, ENVIRONMENT_EVENTS, { environmentId: stoppingWorld.environment.id });
    expect(live.status).toBe(200);
    const stopped = stopping.stopAndDrop();
    expect((await live.next()).event).toBe("complete");
    await stopped;
  });

  async function issueToken(member: Member): Promise<{ id: string; secret: string }> {
    const issued = await member.http.graphql(`mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { uuid } } }`, {
      input: { accountId: member.account.id, name: "subscriber" },
    });
    return { id: issued.body.data.createApiToken.token.uuid, secret: issued.body.data.createApiToken.secret };
  }
});
