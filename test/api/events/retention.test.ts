// TOOLGATE_EVENT_RETENTION_DAYS: unset keeps every event; set, events older than it are pruned.
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadConfig } from "../../../src/config.js";
import { pruneExpiredEvents } from "../../../src/domain/event-retention.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type World } from "../../helpers/world.js";

const DAY_MS = 24 * 60 * 60 * 1000;

it("TOOLGATE_EVENT_RETENTION_DAYS: unset keeps everything; a positive integer of days otherwise", () => {
  expect(loadConfig({}).eventRetentionDays).toBeUndefined();
  expect(loadConfig({ TOOLGATE_EVENT_RETENTION_DAYS: "90" }).eventRetentionDays).toBe(90);
  expect(() => loadConfig({ TOOLGATE_EVENT_RETENTION_DAYS: "0" })).toThrow(/TOOLGATE_EVENT_RETENTION_DAYS: must be at least 1/);
  expect(() => loadConfig({ TOOLGATE_EVENT_RETENTION_DAYS: "1.5" })).toThrow(/must be an integer/);
});

describeEachDatabase("change event retention", (provider) => {
  let service: TestService;
  let world: World;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it("prunes the events older than the retention and keeps the rest", async () => {
    const events = await service.db.changeEvent.findMany({ where: { accountId: world.owner.account.id }, orderBy: { id: "asc" } });
    expect(events.length).toBeGreaterThanOrEqual(2);
    const [old, ...recent] = events;
    const now = new Date();
    await service.db.changeEvent.update({ where: { id: old!.id }, data: { occurredAt: new Date(now.getTime() - 31 * DAY_MS) } });

    expect(await pruneExpiredEvents(service.db, 365, now)).toBe(0);
    expect(await pruneExpiredEvents(service.db, 30, now)).toBe(1);
    const left = await service.db.changeEvent.findMany({ where: { accountId: world.owner.account.id }, orderBy: { id: "asc" } });
    expect(left.map((event) => event.id)).toEqual(recent.map((event) => event.id));
    const page = await world.owner.http.get(`/v1/accounts/${world.owner.account.id}/events`);
    expect(page.body.values.map((value: { id: string }) => value.id)).toEqual(recent.map((event) => event.id));
  });
});
