// Stored definition texts read below Prisma's engine (src/db/definition-texts.ts): each release's
// text exactly as stored, in bytes that stay as they were while later reads go through the same
// connection, since the definitions cache keeps them for the process's life.
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedTenants } from "../../bench/tenants-dataset.js";
import { definitionTextsOf, openDatabase, type Database } from "../../src/db/client.js";
import { createMigratedDatabase, describeEachDatabase } from "../helpers/service.js";

describeEachDatabase("stored definition texts", (provider) => {
  let db: Database;
  let drop: () => Promise<void>;
  let stored: Map<string, string>;

  beforeAll(async () => {
    const scratch = await createMigratedDatabase(provider);
    drop = scratch.drop;
    db = await openDatabase(scratch.url);
    await seedTenants(db, { accounts: 2, environmentsPerAccount: 1, releasesPerAccount: 12, grantsPerEnvironment: 4 });
    const releases = await db.toolRelease.findMany({ select: { id: true, definition: true } });
    stored = new Map(releases.map((release) => [release.id, release.definition]));
  }, 60_000);

  afterAll(async () => {
    await db?.$disconnect();
    await drop?.();
  });

  it("answers every release's stored text, and the bytes read first are unchanged after later reads", async () => {
    const ids = [...stored.keys()];
    expect(ids.length).toBeGreaterThanOrEqual(24);
    const read = definitionTextsOf(db);
    const first = await read(ids.slice(0, 8));
    // More reads through the same pool, connection and buffers, with other and larger answers.
    for (let start = 8; start < ids.length; start += 4) await read(ids.slice(start, start + 4));
    await read(ids);
    expect(first.size).toBe(8);
    for (const [id, bytes] of first) {
      expect(bytes.toString("utf8")).toBe(stored.get(id));
      // A definition of several KB fills a memory of its own: no larger buffer is kept alive with it.
      expect(bytes.byteLength).toBeGreaterThan(4096);
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    }
  });

  it("answers a text outside ASCII as its UTF-8 bytes", async () => {
    const [id] = [...stored.keys()];
    const text = JSON.stringify({ description: "Grüße, 東京 🚀", escaped: "\u0000" });
    await db.toolRelease.update({ where: { id: id! }, data: { definition: text } });
    const bytes = (await definitionTextsOf(db)([id!])).get(id!)!;
    expect(Buffer.compare(bytes, Buffer.from(text, "utf8"))).toBe(0);
    expect(bytes.byteLength).toBeGreaterThan(text.length);
  });

  it("answers nothing for an id that is not a release", async () => {
    const texts = await definitionTextsOf(db)(["00000000-0000-7000-8000-000000000000"]);
    expect(texts.size).toBe(0);
  });
});
