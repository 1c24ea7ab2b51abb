// Throwaway databases for migration authoring, drift checks and tests: a temp SQLite file, or a
// fresh PostgreSQL database created next to the one `serverUrl` points at and dropped afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseProvider } from "../src/db/prisma-schemas.js";

export const DEFAULT_POSTGRES_SERVER_URL = "postgres://postgres@127.0.0.1:5432/test";

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(
  provider: DatabaseProvider,
  serverUrl = process.env.TOOLGATE_TEST_POSTGRES_URL ?? DEFAULT_POSTGRES_SERVER_URL,
): Promise<ScratchDatabase> {
  const name = scratchDatabaseName();
  if (provider === "sqlite") {
    const dir = mkdtempSync(path.join(os.tmpdir(), "toolgate-"));
    return { url: `file:${path.join(dir, `${name}.db`)}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  await withAdminConnection(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  return {
    url: databaseUrlOf(serverUrl, name),
    drop: () => withAdminConnection(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

/** A name no other scratch database has, in this process or another. */
export function scratchDatabaseName(): string {
  return `toolgate_scratch_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/** The URL of database `name` on the server `serverUrl` points at. */
export function databaseUrlOf(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `work` over a connection to the database `serverUrl` names (CREATE and DROP DATABASE run there). */
export async function withAdminConnection(serverUrl: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
