// `toolgate migrate` and `serve` create a PostgreSQL database that does not exist yet (as SQLite
// creates its file), with its name quoted whatever it holds; scratch names, dropped afterwards.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { serveToolgate } from "../helpers/child-process.js";
import { POSTGRES_URL } from "../helpers/service.js";
import { toolgate } from "../reliability/toolgate-cli.js";

const suffix = `${process.pid}_${Date.now().toString(36)}`;
const created: string[] = [];

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const exists = (name: string) => onServer(async (client) => (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1);

/** The test server's URL naming `database` instead. */
function naming(database: string): string {
  const url = new URL(POSTGRES_URL!);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

(POSTGRES_URL ? describe : describe.skip)("a missing PostgreSQL database is created [postgresql]", () => {
  afterAll(() =>
    onServer(async (client) => {
      for (const name of created) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
    }),
  );

  it("migrate creates it, says so, and migrates it; the next migrate finds it", async () => {
    const name = `toolgate_created_${suffix} "quoted" name`;
    created.push(name);
    expect(await exists(name)).toBe(false);
    const first = await toolgate({ TOOLGATE_DATABASE_URL: naming(name) }, "migrate");
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ createdDatabase: name, applied: expect.arrayContaining([expect.stringMatching(/_init$/)]) });
    expect(await exists(name)).toBe(true);
    const second = await toolgate({ TOOLGATE_DATABASE_URL: naming(name) }, "migrate");
    expect(JSON.parse(second.stdout)).toEqual({ applied: [] });
  });

  it("serve creates it and starts on it", async () => {
    const name = `toolgate_served_${suffix}`;
    created.push(name);
    const serving = await serveToolgate({ TOOLGATE_DATABASE_URL: naming(name) });
    try {
      expect(await (await fetch(`${serving.url}/readyz`)).status).toBe(200);
      expect(await exists(name)).toBe(true);
    } finally {
      serving.child.kill("SIGTERM");
      expect((await serving.exited).code).toBe(0);
    }
  });
});
