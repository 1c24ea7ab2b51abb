// A replica whose clock runs ahead leaves stream heads above this process's clock: later events of
// those streams still get greater ids (continuing after the head), so paging with `after` misses
// nothing; other streams keep the ids their clock gives.
import { afterAll, beforeAll, expect, it } from "vitest";
import pg from "pg";
import { uuidv7obj, UUID } from "uuidv7";
import { CHANGE_CHANNEL } from "../../../src/db/change-feed.js";
import { createGrant } from "../../../src/domain/grants.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type World } from "../../helpers/world.js";

/** A UUID v7 of `millis` since the epoch. */
function idAt(millis: number): string {
  const bytes = Uint8Array.from(uuidv7obj().bytes);
  for (let position = 5, rest = millis; position >= 0; position -= 1, rest = Math.floor(rest / 256)) bytes[position] = rest % 256;
  return UUID.ofInner(bytes).toString();
}

describeEachDatabase("event ids after a head from a clock ahead", (provider) => {
  let service: TestService;
  let world: World;
  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  }, 60_000);
  afterAll(() => service?.stopAndDrop());

  it("issues ids above the head, in order, and moves the head to them", async () => {
    const environment = await world.environmentOf(world.owner);
    const ahead = idAt(Date.now() + 3_600_000);
    await service.db.$executeRawUnsafe(`UPDATE "StreamHead" SET "head" = '${ahead}' WHERE "stream" = 'environment:${environment.id}'`);
    const releases = await Promise.all([1, 2, 3].map((index) => world.publish(world.owner, `ahead-${index}-${provider}`, "1.0.0")));
    for (const release of releases) await createGrant(service.db, world.owner.account, environment.id, { release: { type: "ById", releaseId: release.id } });
    const events = await service.db.changeEvent.findMany({ where: { environmentId: environment.id, type: "grant-created" }, orderBy: { occurredAt: "asc" } });
    expect(events).toHaveLength(3);
    const ids = events.map((event) => event.id);
    expect(ids.every((id) => id > ahead)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    const [head] = await service.db.$queryRawUnsafe<{ head: string }[]>(`SELECT "head" FROM "StreamHead" WHERE "stream" = 'environment:${environment.id}'`);
    expect(head!.head).toBe(ids[2]);
    // The owner's account stream was moved along: its head is the same id.
    const [owner] = await service.db.$queryRawUnsafe<{ head: string }[]>(
      `SELECT "head" FROM "StreamHead" WHERE "stream" = 'account:${world.owner.account.id}'`,
    );
    expect(owner!.head).toBe(ids[2]);
  });

  it.runIf(provider === "postgresql")("notifies each event once, with the id it was stored under, when its ids continue after such a head", async () => {
    const environment = await world.environmentOf(world.owner);
    const ahead = idAt(Date.now() + 3_600_000);
    await service.db.$executeRawUnsafe(`UPDATE "StreamHead" SET "head" = '${ahead}' WHERE "stream" = 'environment:${environment.id}'`);
    const release = await world.publish(world.owner, `ahead-notified-${provider}`, "1.0.0");
    const listener = new pg.Client({ connectionString: service.databaseUrl });
    await listener.connect();
    try {
      const notices: Array<{ id: string; environmentId: string | null }> = [];
      listener.on("notification", ({ payload }) => notices.push(JSON.parse(payload!)));
      await listener.query(`LISTEN ${CHANGE_CHANNEL}`);
      await createGrant(service.db, world.owner.account, environment.id, { release: { type: "ById", releaseId: release.id } });
      const [event] = await service.db.changeEvent.findMany({ where: { environmentId: environment.id, type: "grant-created" } });
      expect(event!.id > ahead).toBe(true);
      // A query on the listening connection is answered after the notices delivered before it.
      await listener.query("SELECT 1");
      expect(notices.filter((notice) => notice.environmentId === environment.id)).toEqual([expect.objectContaining({ id: event!.id, type: "grant-created" })]);
    } finally {
      await listener.end();
    }
  });
});
