// What the command creates and when: `serve` and `migrate` create a missing database (and report an
// impossible path in one line), admin commands refuse one that does not exist, `seed --demo`
// changes nothing on a registry that has users, and a start whose port is taken creates nothing.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createScratchDatabase, databaseUrlOf, scratchDatabaseName } from "../../scripts/scratch-database.js";
import { toolgate } from "../reliability/toolgate-cli.js";
import { describeEachDatabase, POSTGRES_URL } from "../helpers/service.js";

const folder = mkdtempSync(path.join(tmpdir(), "toolgate-guards-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function postgresDatabaseExists(name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

describe("an SQLite path that cannot be created", () => {
  it("is one line and exit 2, at once", { timeout: 30_000 }, async () => {
    for (const command of [["migrate"], ["serve", "--port", "0"]]) {
      const began = performance.now();
      const result = await toolgate({ TOOLGATE_DATABASE_URL: "file:/proc/x/y.db" }, ...command);
      expect(performance.now() - began).toBeLessThan(10_000);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split("\n")).toEqual([expect.stringMatching(/cannot create the folder \/proc\/x for the SQLite database/)]);
    }
  });
});

describe("admin commands on a database that does not exist", () => {
  it("refuse a mistyped SQLite path, creating no folder and no file (exit 2)", async () => {
    const mistyped = path.join(folder, "no-such-folder", "toolgate.db");
    for (const command of [
      ["account", "list"],
      ["token", "create", "--admin", "--name", "ops"],
      ["seed", "--demo"],
    ]) {
      const result = await toolgate({ TOOLGATE_DATABASE_URL: `file:${mistyped}` }, ...command);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/does not exist/);
      expect(result.stdout).toBe("");
    }
    expect(existsSync(path.dirname(mistyped))).toBe(false);
  });

  (POSTGRES_URL ? it : it.skip)("refuse a missing PostgreSQL database and do not create it (exit 2)", async () => {
    const name = scratchDatabaseName();
    const result = await toolgate({ TOOLGATE_DATABASE_URL: databaseUrlOf(POSTGRES_URL!, name) }, "account", "list");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/does not exist/);
    expect(await postgresDatabaseExists(name)).toBe(false);
  });
});

describeEachDatabase("seed --demo", (provider) => {
  it("loads the demo into an empty registry once; on a registry with users it changes nothing and issues no token", { timeout: 60_000 }, async () => {
    const scratch = await createScratchDatabase(provider, POSTGRES_URL);
    try {
      const env = { TOOLGATE_DATABASE_URL: scratch.url };
      expect((await toolgate(env, "migrate")).code).toBe(0);
      const first = JSON.parse((await toolgate(env, "seed", "--demo")).stdout);
      expect(first).toMatchObject({ seeded: true, tokens: { owner: expect.stringMatching(/^tg_/), deployer: expect.stringMatching(/^tg_/) } });
      const tokensBefore = (await toolgate(env, "token", "list", "--json")).stdout;
      const again = await toolgate(env, "seed", "--demo");
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout)).toEqual({ seeded: false });
      expect((await toolgate(env, "token", "list", "--json")).stdout).toBe(tokensBefore);
    } finally {
      await scratch.drop();
    }
  });
});

describeEachDatabase("a first start whose port is taken", (provider) => {
  it("fails in one line (exit 2) before creating the database, the admin or a token", { timeout: 60_000 }, async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const sqliteFile = path.join(folder, `port-taken-${provider}.db`);
    const databaseName = scratchDatabaseName();
    const databaseUrl = provider === "sqlite" ? `file:${sqliteFile}` : databaseUrlOf(POSTGRES_URL!, databaseName);
    try {
      const result = await toolgate({ TOOLGATE_DATABASE_URL: databaseUrl }, "serve", "--port", String(port), "--host", "127.0.0.1");
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split("\n")).toEqual([
        `cannot listen on 127.0.0.1:${port}: the address is already in use (choose another with PORT or --port, HOST or --host)`,
      ]);
      if (provider === "sqlite") expect(existsSync(sqliteFile)).toBe(false);
      else expect(await postgresDatabaseExists(databaseName)).toBe(false);
    } finally {
      taken.close();
    }
  });
});
