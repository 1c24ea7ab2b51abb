// Tenants do not wait for each other: on PostgreSQL, where writes run concurrently, another account's
// writes complete while one account's large apply is still running, and each environment's events
// still come in commit order, so paging with `after` misses nothing. (SQLite runs one write at a time
// by design.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Environment } from "../../src/db/generated/sqlite/client.js";
import { definitionFor } from "../fixtures/definitions/index.js";
import { body, paths, publication, uniqueName } from "../api/publications/support.js";
import { byId } from "../api/grants/support.js";
import { startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type Member, type World } from "../helpers/world.js";

const POSTGRES = process.env.TOOLGATE_TEST_POSTGRES_URL;
const LARGE_APPLY = 150;
const OTHER_WRITES = 6;

(POSTGRES ? describe : describe.skip)("writes of different accounts [postgresql]", () => {
  let service: TestService;
  let world: World;
  let applier: Member;
  let other: Member;
  let appliersEnvironment: Environment;
  let othersEnvironment: Environment;

  beforeAll(async () => {
    service = await startTestService("postgresql");
    world = await createWorld(service);
    applier = await world.member({ plan: "unlimited" });
    other = await world.member({ plan: "unlimited" });
    appliersEnvironment = await world.environmentOf(applier);
    othersEnvironment = await world.environmentOf(other);
  }, 120_000);
  afterAll(() => service?.stopAndDrop());

  /** Whether some transaction holds an advisory lock: the apply has begun its transaction. */
  const applyHoldsItsLocks = async () => {
    const [row] = await service.db.$queryRawUnsafe<{ held: bigint }[]>(`SELECT count(*) AS "held" FROM pg_locks WHERE locktype = 'advisory' AND granted`);
    return Number(row!.held) > 0;
  };

  it(`another account's writes complete while one account applies ${LARGE_APPLY} releases`, async () => {
    const releases = await Promise.all(Array.from({ length: OTHER_WRITES }, () => world.publish(other, uniqueName("other"), "1.0.0")));
    const publications = Array.from({ length: LARGE_APPLY }, () => {
      const name = uniqueName("bulk");
      return publication(definitionFor(name, "1.0.0"));
    });
    let applyAnswered: number | undefined;
    const apply = applier.http.post(paths.apply(appliersEnvironment.id), body({ publications })).then((answer) => {
      applyAnswered = performance.now();
      return answer;
    });
    while (!(await applyHoldsItsLocks())) {
      if (applyAnswered !== undefined) throw new Error("the apply answered before it could be observed running; make it larger");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const othersAnswered: number[] = [];
    for (const release of releases) {
      const created = await other.http.post(`/v1/envs/${othersEnvironment.id}/tool-middlewares`, { release: byId(release) });
      expect(created.status).toBe(200);
      othersAnswered.push(performance.now());
    }
    const applied = await apply;
    expect(applied.status).toBe(200);
    expect(await service.db.toolRelease.count({ where: { ownerAccountId: applier.account.id } })).toBe(LARGE_APPLY);
    // Every one of the other account's writes was answered while the apply was still running.
    expect(applyAnswered).toBeDefined();
    for (const answered of othersAnswered) expect(answered).toBeLessThan(applyAnswered!);
  });

  it("keeps each environment's events in commit order while accounts write at once: paging with after misses nothing", async () => {
    // Writers of both accounts into the applier's environment (shared with the other as deployer)
    // and their own, while a reader pages the shared environment's events with `after`.
    const shared = await world.environmentOf(applier);
    await service.db.environmentShare.create({ data: { environmentId: shared.id, accountId: other.account.id, role: "deployer", acceptedAt: new Date() } });
    const releasesOf = async (member: Member) => Promise.all(Array.from({ length: 15 }, () => world.publish(member, uniqueName("mixed"), "1.0.0")));
    const [mine, theirs] = await Promise.all([releasesOf(applier), releasesOf(other)]);
    const seen: string[] = [];
    let cursor: string | null = null;
    let writing = true;
    const readPage = async () => {
      const query: string = cursor ? `?after=${cursor}&limit=500` : "?limit=500";
      const page = await applier.http.get(`/v1/envs/${shared.id}/events${query}`);
      expect(page.status).toBe(200);
      for (const event of page.body.values as { id: string }[]) seen.push(event.id);
      cursor = seen[seen.length - 1] ?? cursor;
    };
    const reader = (async () => {
      while (writing) await readPage();
    })();
    const grantAll = (member: Member, list: typeof mine) =>
      Promise.all(
        list.map((release) =>
          member.http.post(`/v1/envs/${shared.id}/tool-middlewares`, { release: byId(release) }).then((answer) => expect(answer.status).toBe(200)),
        ),
      );
    await Promise.all([grantAll(applier, mine), grantAll(other, theirs)]);
    writing = false;
    await reader;
    await readPage();
    const stored = await service.db.changeEvent.findMany({ where: { environmentId: shared.id }, orderBy: { id: "asc" }, select: { id: true } });
    expect(stored).toHaveLength(31); // its creation, and 30 grants
    // The reader, paging while the writes committed, saw every event once, in id order.
    expect(seen).toEqual(stored.map((event) => event.id));
  });
});
