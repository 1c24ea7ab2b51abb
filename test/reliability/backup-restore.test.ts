// Backup and restore as docs/deploy.md tells an operator to do them: data written through the API,
// backed up while the server runs (SQLite: `toolgate backup`; PostgreSQL: pg_dump), changed again,
// the database wiped, the backup restored, and a server started on it answers exactly what it
// answered at the backup: lists, grants and events, tokens included.
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, expect, it } from "vitest";
import type { DatabaseProvider } from "../../src/db/prisma-schemas.js";
import { createScratchDatabase, type ScratchDatabase, withAdminConnection } from "../../scripts/scratch-database.js";
import { bannerExports, serveToolgate, type ServingToolgate } from "../helpers/child-process.js";
import { describeEachDatabase, POSTGRES_URL } from "../helpers/service.js";
import { toolgate } from "./toolgate-cli.js";

const run = promisify(execFile);

/** The demo's ids and tokens, from the banner's first two `export` lines (the third holds the headers). */
function demoVariables(server: ServingToolgate): Record<string, string> {
  const assignments = bannerExports(server.stdout()).slice(0, 2).join(" ");
  return Object.fromEntries([...assignments.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));
}

/** What the registry answers alice: her releases, staging's grants and events, her account's events. */
async function answers(url: string, variables: Record<string, string>): Promise<unknown[]> {
  const paths = [
    `/v1/accounts/${variables.ACCOUNT}/tool-releases`,
    `/v1/envs/${variables.ENV}/tool-middlewares`,
    `/v1/environment-tool-middleware-grants/${variables.GRANT}`,
    `/v1/envs/${variables.ENV}/events?limit=500`,
    `/v1/accounts/${variables.ACCOUNT}/events?limit=500`,
  ];
  return Promise.all(
    paths.map(async (requestPath) => {
      const response = await fetch(`${url}${requestPath}`, { headers: { authorization: `Bearer ${variables.T}` } });
      return { path: requestPath, status: response.status, body: await response.json() };
    }),
  );
}

/** Changes made after the backup, which the restore must not bring back: the demo grant deleted. */
async function changeAfterBackup(url: string, variables: Record<string, string>): Promise<void> {
  const response = await fetch(`${url}/v1/environment-tool-middleware-grants/${variables.GRANT}`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${variables.T}` },
  });
  expect(response.status).toBe(204);
}

async function stop(server: ServingToolgate): Promise<void> {
  server.child.kill("SIGTERM");
  expect((await server.exited).code).toBe(0);
}

describeEachDatabase("backup and restore (docs/deploy.md)", (provider: DatabaseProvider) => {
  let folder: string;
  let scratch: ScratchDatabase | undefined;
  let server: ServingToolgate | undefined;
  afterEach(async () => {
    await server?.ensureDead();
    await scratch?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it("a backup taken while serving, restored into a wiped database, answers what the registry answered then", async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), "toolgate-backup-"));
    scratch = await createScratchDatabase(provider, POSTGRES_URL);
    const env = { TOOLGATE_DATABASE_URL: scratch.url };
    server = await serveToolgate(env, 120_000, ["--demo"]);
    const variables = demoVariables(server);
    const before = await answers(server.url, variables);
    expect(before.map((answer) => (answer as { status: number }).status)).toEqual([200, 200, 200, 200, 200]);

    const backup = path.join(folder, provider === "sqlite" ? "toolgate-backup.db" : "toolgate.dump");
    if (provider === "sqlite") {
      const result = await toolgate(env, "backup", "--to", backup);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ backup, pages: expect.any(Number) });
      // A second backup to the same file is refused: a backup is never overwritten.
      expect((await toolgate(env, "backup", "--to", backup)).stderr).toBe(`--to: ${backup} exists; name a new file\n`);
    } else {
      await run("pg_dump", ["--format=custom", `--file=${backup}`, scratch.url]);
    }
    await changeAfterBackup(server.url, variables);
    expect(await answers(server.url, variables)).not.toEqual(before);
    await stop(server);

    // Wipe, then restore as the document says.
    if (provider === "sqlite") {
      const file = scratch.url.slice("file:".length);
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
      copyFileSync(backup, file);
    } else {
      const name = decodeURIComponent(new URL(scratch.url).pathname.slice(1));
      await withAdminConnection(POSTGRES_URL!, async (client) => {
        await client.query(`DROP DATABASE "${name}" WITH (FORCE)`);
        await client.query(`CREATE DATABASE "${name}"`);
      });
      await run("pg_restore", ["--no-owner", "--exit-on-error", "--single-transaction", `--dbname=${scratch.url}`, backup]);
    }
    server = await serveToolgate(env, 120_000);
    expect(await answers(server.url, variables)).toEqual(before);
    await stop(server);
  }, 240_000);
});

it("backup refuses PostgreSQL, naming pg_dump, and a missing SQLite database", async () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "toolgate-backup-"));
  try {
    const postgres = await toolgate({ TOOLGATE_DATABASE_URL: "postgres://toolgate@127.0.0.1:1/toolgate" }, "backup", "--to", path.join(folder, "x.dump"));
    expect(postgres).toMatchObject({ code: 2, stdout: "" });
    expect(postgres.stderr).toBe("--database-url: backup copies SQLite files; back up PostgreSQL with pg_dump (docs/deploy.md, Backup and restore)\n");
    const missing = await toolgate({ TOOLGATE_DATABASE_URL: `file:${path.join(folder, "none.db")}` }, "backup");
    expect(missing.stderr).toBe(`--to: is required (the new file to write)\n--database-url: no database at ${path.join(folder, "none.db")}\n`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
