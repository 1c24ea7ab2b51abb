// The read cache's data versions (src/db/data-version.ts): the versions asked for in one turn of the
// event loop are read in one statement, each as it would be read alone, and a version read after a
// head moved sees it.
import { afterAll, beforeAll, expect, it } from "vitest";
import { dataVersionOf, openDatabase, type Database } from "../../src/db/client.js";
import { accountStream, SYSTEM_STREAM } from "../../src/db/stream-heads.js";
import { createMigratedDatabase, describeEachDatabase } from "../helpers/service.js";

describeEachDatabase("data versions", (provider) => {
  let db: Database;
  let drop: () => Promise<void>;
  const statements: string[] = [];
  const headReads = () => statements.filter((sql) => sql.includes('"StreamHead"')).length;

  beforeAll(async () => {
    const scratch = await createMigratedDatabase(provider);
    drop = scratch.drop;
    db = await openDatabase(scratch.url, { onQuery: (sql) => statements.push(sql) });
  });
  afterAll(async () => {
    await db?.$disconnect();
    await drop?.();
  });

  const setHead = (stream: string, head: string) =>
    db.$executeRawUnsafe(
      `INSERT INTO "StreamHead" ("stream", "head") VALUES (${provider === "postgresql" ? "$1, $2" : "?, ?"}) ON CONFLICT ("stream") DO UPDATE SET "head" = excluded."head"`,
      stream,
      head,
    );

  it("reads the versions asked for in one turn in one statement, each as read alone", async () => {
    await setHead(SYSTEM_STREAM, "s1");
    await setHead(accountStream("a"), "a1");
    await setHead(accountStream("b"), "b1");
    const version = dataVersionOf(db);
    const alone = [];
    for (const account of ["a", "b", "c", null, "a"]) alone.push(await version(account));
    expect(alone).toEqual(["s1/a1", "s1/b1", "s1/", "s1/", "s1/a1"]);
    const before = headReads();
    const together = await Promise.all(["a", "b", "c", null, "a"].map((account) => version(account)));
    expect(together).toEqual(alone);
    expect(headReads() - before).toBe(1);
  });

  it("sees a head moved before it was asked", async () => {
    const version = dataVersionOf(db);
    const first = await version("a");
    await setHead(accountStream("a"), "a2");
    expect(await version("a")).not.toBe(first);
    await setHead(SYSTEM_STREAM, "s2");
    expect(await Promise.all([version("a"), version("b")])).toEqual(["s2/a2", "s2/b1"]);
  });
});
