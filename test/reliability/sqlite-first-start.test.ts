// A first start on a new SQLite file killed at any moment (creating the file, migrating, creating
// the admin, serving) leaves a database the next start takes up: each migration commits whole with
// its record, as on PostgreSQL (concurrent-start.test.ts), never a "failed" row that blocks starts.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { listMigrations, migrateDatabase } from "../../src/db/migrations.js";
import { runToolgate, serveToolgate } from "../helpers/child-process.js";
import { client } from "../helpers/http.js";

const MIGRATION_NAMES = listMigrations("sqlite").migrationDirectories.map((directory) => directory.path);
const KILL_POINTS = 16;
const ADMIN_TOKEN = `tg_sqlite_kill_${"k".repeat(32)}`;

function migrationRows(file: string): { migration_name: string; finished: number }[] {
  const database = new Database(file, { readonly: true });
  try {
    const table = database.prepare(`SELECT 1 FROM sqlite_master WHERE name = '_prisma_migrations'`).get();
    if (!table) return [];
    return database.prepare(`SELECT migration_name, finished_at IS NOT NULL AS finished FROM "_prisma_migrations" ORDER BY migration_name`).all() as never;
  } finally {
    database.close();
  }
}

/** When `file` appeared (performance.now()), polled every millisecond. */
async function fileCreated(file: string): Promise<number> {
  await until(() => existsSync(file));
  return performance.now();
}

async function until(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

describe("first starts on SQLite killed at any moment", () => {
  const folder = mkdtempSync(path.join(tmpdir(), "toolgate-sqlite-kill-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it(`restarts cleanly after a SIGKILL at each of ${KILL_POINTS} moments of a first start`, { timeout: 240_000 }, async () => {
    // The kill points are counted from the moment the file appears (migrating starts then), spread
    // over how long a whole first start takes here beyond that: inside each migration, while the
    // admin is created, while serving.
    const probeFile = path.join(folder, "probe.db");
    const probe = runToolgate(["serve", "--port", "0"], { TOOLGATE_DATABASE_URL: `file:${probeFile}`, TOOLGATE_ADMIN_TOKEN: ADMIN_TOKEN });
    const created = await fileCreated(probeFile);
    await until(() => probe.stdout().includes("listening on"));
    const windowMs = performance.now() - created;
    await probe.ensureDead();

    const files = Array.from({ length: KILL_POINTS }, (_, index) => path.join(folder, `kill-${index}.db`));
    for (let batch = 0; batch < KILL_POINTS; batch += 4) {
      await Promise.all(
        files.slice(batch, batch + 4).map(async (file, offset) => {
          const attempt = runToolgate(["serve", "--port", "0"], { TOOLGATE_DATABASE_URL: `file:${file}`, TOOLGATE_ADMIN_TOKEN: ADMIN_TOKEN });
          await fileCreated(file);
          await new Promise((resolve) => setTimeout(resolve, ((batch + offset) / KILL_POINTS) * windowMs));
          attempt.child.kill("SIGKILL");
          await attempt.exited;
        }),
      );
    }

    const failures: string[] = [];
    for (const file of files) {
      const serving = await serveToolgate({ TOOLGATE_DATABASE_URL: `file:${file}`, TOOLGATE_ADMIN_TOKEN: ADMIN_TOKEN }).catch((error: Error) => error);
      if (serving instanceof Error) {
        failures.push(`${path.basename(file)}: ${serving.message.split("\n").slice(0, 3).join(" ")}`);
        continue;
      }
      try {
        const me = await client(serving.url, ADMIN_TOKEN).graphql("{ me { admin } }");
        if (JSON.stringify(me.body.data) !== JSON.stringify({ me: { admin: true } })) failures.push(`${path.basename(file)}: ${JSON.stringify(me.body)}`);
      } finally {
        serving.child.kill("SIGTERM");
        await serving.exited;
      }
      expect(migrationRows(file)).toEqual(MIGRATION_NAMES.map((name) => ({ migration_name: name, finished: 1 })));
    }
    expect(failures).toEqual([]);
  });

  it("rolls a failing migration back whole: no tables, no record, and the next run applies it", async () => {
    const file = path.join(folder, "failing.db");
    const database = new Database(file);
    // A table the first migration creates: it fails midway, after creating others.
    database.exec(`CREATE TABLE "ToolRelease" ("blocker" TEXT)`);
    database.close();
    await expect(migrateDatabase(`file:${file}`)).rejects.toThrow(/migration 20261122052201_init failed and was rolled back/);
    const after = new Database(file, { readonly: true });
    const tables = after.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).pluck().all();
    after.close();
    expect(tables).toEqual(["ToolRelease", "_prisma_migrations"]);
    expect(migrationRows(file)).toEqual([]);

    const fixed = new Database(file);
    fixed.exec(`DROP TABLE "ToolRelease"`);
    fixed.close();
    expect(await migrateDatabase(`file:${file}`)).toEqual(MIGRATION_NAMES);
  });
});
