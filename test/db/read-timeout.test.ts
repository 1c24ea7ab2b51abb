// The client-side read timeout on PostgreSQL (src/db/read-timeout.ts), against a real server: a
// query left unanswered past it fails as node-postgres's own timeout did (the message the service
// maps to 503), its connection is cut and the pool opens another; answered queries, and clients that
// sit idle longer than the timeout, are left alone.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { clientWithReadTimeout } from "../../src/db/read-timeout.js";
import { isDatabaseUnavailable } from "../../src/db/unavailable.js";

const POSTGRES = process.env.TOOLGATE_TEST_POSTGRES_URL;

describe.skipIf(!POSTGRES)("client-side read timeout [postgresql]", () => {
  const poolWith = (readTimeoutMs: number) => new pg.Pool({ connectionString: POSTGRES, max: 1, Client: clientWithReadTimeout(readTimeoutMs) });

  it("fails a query PostgreSQL has not answered within the timeout, as unavailable, and the pool recovers", async () => {
    const pool = poolWith(500);
    try {
      const before = (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      const started = performance.now();
      const error = await pool.query("SELECT pg_sleep(5)").then(
        () => undefined,
        (caught: unknown) => caught,
      );
      const waited = performance.now() - started;
      expect(String(error)).toMatch(/Query read timeout/);
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(waited).toBeGreaterThanOrEqual(500);
      expect(waited).toBeLessThan(4000);
      // The cut connection was replaced: the next query runs on another backend.
      const after = (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      expect(after).not.toBe(before);
    } finally {
      await pool.end();
    }
  });

  it("leaves answered queries and idle clients alone, however long they stay idle", async () => {
    const pool = poolWith(400);
    try {
      const first = (await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid, pg_sleep(0.2)")).rows[0]!.pid;
      await new Promise((resolve) => setTimeout(resolve, 1200));
      const client = await pool.connect();
      try {
        // Idle inside a checked-out client (as between a transaction's statements) is not waiting for an answer.
        await client.query("BEGIN");
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
        await client.query("COMMIT");
        expect(rows[0]!.pid).toBe(first);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });
});
