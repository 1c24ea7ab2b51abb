// Many live subscribers of one environment share their reads: every one of 1,000 subscribers (over
// 50 tokens of 10 accounts) receives every event of a burst once, in order, while the event reads
// and access checks stay one per notice, as for one subscriber. A revoked token's subscriptions end,
// so do those of an account whose share is gone; the others go on. A token past its cap of open
// subscriptions is refused.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ToolRelease } from "../../../src/db/generated/sqlite/client.js";
import { issueToken } from "../../../src/domain/accounts.js";
import { SAFETY_READ_MS } from "../../../src/graphql/live-events/stream-reader.js";
import { shareEnvironment } from "../../../src/domain/environments.js";
import { startCountingService, type CountingService } from "../../graphql/counting-service.js";
import { describeEachDatabase, startTestService } from "../../helpers/service.js";
import { subscribeOverSse, type SseSubscription } from "../../helpers/sse.js";
import { createWorld, type Member, type World } from "../../helpers/world.js";
import { uniqueName } from "../publications/support.js";
import { ENVIRONMENT_EVENTS, nextEvents } from "./support.js";

const ACCOUNTS = 10;
const TOKENS_PER_ACCOUNT = 5;
const SUBSCRIPTIONS_PER_TOKEN = 20;
const SUBSCRIBERS = ACCOUNTS * TOKENS_PER_ACCOUNT * SUBSCRIPTIONS_PER_TOKEN;
const GRANT_CYCLES = 3;
/** Per cycle: created, deleted, restored, deleted. */
const EVENTS_PER_CYCLE = 4;

interface SubscriberToken {
  id: string;
  secret: string;
  accountId: string;
}

interface Subscription {
  token: SubscriberToken;
  stream: SseSubscription;
}

/** The statements that read a stream's events (readEvents), as Prisma sends them to either database. */
const isEventRead = (sql: string) => /FROM [`"]\w+[`"]\.[`"]ChangeEvent[`"]/.test(sql) && / ORDER BY \S+ ASC /.test(sql);
/** The statements that read many subscribers' tokens at once (the live access check). */
const isTokenRecheck = (sql: string) => /FROM [`"]\w+[`"]\.[`"]ApiToken[`"]/.test(sql) && /[`"]secretHash[`"] IN \(/.test(sql);

describeEachDatabase("live events fan out to many subscribers of one environment", (provider) => {
  let service: CountingService;
  let world: World;
  let release: ToolRelease;
  const subscriptions: Subscription[] = [];

  beforeAll(async () => {
    service = await startCountingService(provider, { changeFeed: true });
    world = await createWorld(service);
    release = await world.publish(world.owner, uniqueName("fan-out"), "1.0.0");
    const tokens: SubscriberToken[] = [];
    for (let index = 0; index < ACCOUNTS; index += 1) {
      const member = await world.member();
      await shareEnvironment(service.db, "system", { environmentId: world.environment.id, accountId: member.account.id, role: "viewer" });
      for (let token = 0; token < TOKENS_PER_ACCOUNT; token += 1) {
        const issued = await issueToken(service.db, "system", { accountId: member.account.id, name: `subscriber-${token}` });
        tokens.push({ id: issued.token.id, secret: issued.secret, accountId: member.account.id });
      }
    }
    const after = (await service.db.changeEvent.findFirstOrThrow({ orderBy: { id: "desc" } })).id;
    // Opened a hundred at a time: the point is many open streams, not a thousand handshakes at once.
    const wanted = tokens.flatMap((token) => Array.from({ length: SUBSCRIPTIONS_PER_TOKEN }, () => token));
    for (let start = 0; start < wanted.length; start += 100) {
      const opened = await Promise.all(
        wanted.slice(start, start + 100).map(async (token) => ({
          token,
          stream: await subscribeOverSse(service.url, token.secret, ENVIRONMENT_EVENTS, { environmentId: world.environment.id, after }),
        })),
      );
      subscriptions.push(...opened);
    }
    expect(subscriptions.map(({ stream }) => stream.status)).toEqual(subscriptions.map(() => 200));
  }, 180_000);
  afterAll(async () => {
    for (const { stream } of subscriptions) stream.close();
    await service?.stopAndDrop();
  });

  /** Create, delete, restore and delete a grant of the release: four events, one request (and one notice) each. */
  async function grantCycle(member: Member): Promise<void> {
    const created = await member.http.post(`/v1/envs/${world.environment.id}/tool-middlewares`, { release: { type: "ById", releaseId: release.id } });
    expect(created.status, created.text).toBe(200);
    const grant = `/v1/environment-tool-middleware-grants/${created.body.grant.id}`;
    expect((await member.http.delete(grant)).status).toBe(204);
    expect((await member.http.post(`${grant}/restore`)).status).toBe(200);
    expect((await member.http.delete(grant)).status).toBe(204);
  }

  const eventIdsAfter = async (after: string) =>
    (await service.db.changeEvent.findMany({ where: { environmentId: world.environment.id, id: { gt: after } }, orderBy: { id: "asc" } })).map(
      (event) => event.id,
    );

  it(`${SUBSCRIBERS} subscribers each receive every event of a burst once, in order, with one event read and one access check per notice`, async () => {
    // Every subscriber has caught up and joined its environment's reader once it has the first cycle.
    const marker = (await service.db.changeEvent.findFirstOrThrow({ orderBy: { id: "desc" } })).id;
    await grantCycle(world.deployer);
    const firstCycle = await eventIdsAfter(marker);
    const receivedFirst = await Promise.all(subscriptions.map(({ stream }) => nextEvents(stream, EVENTS_PER_CYCLE)));
    for (const events of receivedFirst) expect(events.map((event) => event.uuid)).toEqual(firstCycle);

    const burstAfter = firstCycle.at(-1)!;
    const received: { uuid: string }[][] = [];
    const started = performance.now();
    const { statements } = await service.countQueries(async () => {
      for (let cycle = 0; cycle < GRANT_CYCLES; cycle += 1) await grantCycle(world.deployer);
      received.push(...(await Promise.all(subscriptions.map(({ stream }) => nextEvents(stream, GRANT_CYCLES * EVENTS_PER_CYCLE)))));
    });
    const burst = await eventIdsAfter(burstAfter);
    expect(burst).toHaveLength(GRANT_CYCLES * EVENTS_PER_CYCLE);
    const wrong = received.filter((events) => events.map((event) => event.uuid).join() !== burst.join());
    expect(wrong).toHaveLength(0);

    // One notice per event. Each notice costs at most one read and one token check shared by all
    // subscribers (a read may serve several notices); besides, the reader reads once per safety
    // interval whatever happens (a read that finds no event checks nothing).
    const notices = burst.length;
    const safetyReads = Math.ceil((performance.now() - started) / SAFETY_READ_MS);
    const eventReads = statements.filter(isEventRead).length;
    const tokenRechecks = statements.filter(isTokenRecheck).length;
    expect(eventReads).toBeGreaterThan(0);
    expect(eventReads).toBeLessThanOrEqual(notices + safetyReads);
    expect(tokenRechecks).toBeGreaterThan(0);
    expect(tokenRechecks).toBeLessThanOrEqual(notices);
  }, 120_000);

  it("a revoked token's subscriptions end at once, a removed share's before the next event; the other subscribers receive every event", async () => {
    const expectAccessLost = async ({ stream }: Subscription) => {
      const frame = await stream.next();
      expect(frame.event).toBe("next");
      expect(frame.data.errors[0].extensions.code).toBe("AUTH_UNAUTHORIZED");
      expect((await stream.next()).event).toBe("complete");
    };
    const revoked = subscriptions[0]!.token;
    const revocation = await world.admin.graphql(`mutation ($id: UUID!) { revokeApiToken(id: $id) { revokedAt } }`, { id: revoked.id });
    expect(revocation.body.errors).toBeUndefined();
    const ofRevoked = subscriptions.filter(({ token }) => token.id === revoked.id);
    expect(ofRevoked).toHaveLength(SUBSCRIPTIONS_PER_TOKEN);
    // The revocation alone ends them: no event of the environment is needed.
    for (const subscription of ofRevoked) await expectAccessLost(subscription);

    // The API has no way to remove a share; removed in the database, it ends the account's streams before they deliver anything more.
    const unshared = subscriptions.find(({ token }) => token.accountId !== revoked.accountId)!.token.accountId;
    await service.db.environmentShare.deleteMany({ where: { environmentId: world.environment.id, accountId: unshared } });
    const marker = (await service.db.changeEvent.findFirstOrThrow({ where: { environmentId: world.environment.id }, orderBy: { id: "desc" } })).id;
    await grantCycle(world.owner);
    const cycle = await eventIdsAfter(marker);
    const ofUnshared = subscriptions.filter(({ token }) => token.accountId === unshared);
    expect(ofUnshared).toHaveLength(TOKENS_PER_ACCOUNT * SUBSCRIPTIONS_PER_TOKEN);
    for (const subscription of ofUnshared) await expectAccessLost(subscription);

    const others = subscriptions.filter(({ token }) => token.id !== revoked.id && token.accountId !== unshared);
    const received = await Promise.all(others.map(({ stream }) => nextEvents(stream, EVENTS_PER_CYCLE)));
    for (const events of received) expect(events.map((event) => event.uuid)).toEqual(cycle);
  }, 60_000);
});

describeEachDatabase("open subscriptions per API token", (provider) => {
  it("refuses the subscription past the token's cap with 422 LIMIT_EXCEEDED, and admits one again once another closes", async () => {
    const service = await startTestService(provider, { maxSubscriptionsPerToken: 3 });
    try {
      const world = await createWorld(service);
      const environmentId = world.environment.id;
      const subscribe = (member: Member) => subscribeOverSse(service.url, member.token, ENVIRONMENT_EVENTS, { environmentId });
      const open = [await subscribe(world.viewer), await subscribe(world.viewer), await subscribe(world.viewer)];
      expect(open.map((stream) => stream.status)).toEqual([200, 200, 200]);

      const refused = await subscribe(world.viewer);
      expect(refused.status).toBe(422);
      const refusal = await refused.next();
      expect(refusal.event).toBe("next");
      expect(refusal.data.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining("already holds 3 open subscriptions"),
          extensions: { code: "LIMIT_EXCEEDED", http: { status: 422 } },
        }),
      ]);
      expect((await refused.next()).event).toBe("complete");
      refused.close();

      // Another token (of another account) is not held back by this one's.
      const other = await subscribe(world.deployer);
      expect(other.status).toBe(200);

      // The cap counts open streams: one that closes frees its slot.
      open.pop()!.close();
      await expect
        .poll(async () => {
          const next = await subscribe(world.viewer);
          next.close();
          return next.status;
        })
        .toBe(200);
      for (const stream of [...open, other]) stream.close();
    } finally {
      await service.stopAndDrop();
    }
  });
});
