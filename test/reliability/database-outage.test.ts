// The database goes away while toolgate serves: clients get 503 DATABASE_UNAVAILABLE with
// Retry-After (never a 500), /readyz says so within 2 s even during a partition, and service
// resumes by itself when the database is back. PostgreSQL behind a TCP proxy the test controls.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createScratchDatabase, type ScratchDatabase } from "../../scripts/scratch-database.js";
import { startService, type Service } from "../../src/service.js";
import { client } from "../helpers/http.js";
import { POSTGRES_URL } from "../helpers/service.js";
import { hostAndPort, startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.js";

const CONNECT_TIMEOUT_MS = 1000;
const STATEMENT_TIMEOUT_MS = 1000;

(POSTGRES_URL ? describe : describe.skip)("database outage [postgresql]", () => {
  let scratch: ScratchDatabase;
  let proxy: TcpProxy;
  let service: Service;
  const adminToken = `tg_test_admin_${"o".repeat(32)}`;
  let adminId: string;

  beforeAll(async () => {
    scratch = await createScratchDatabase("postgresql", POSTGRES_URL);
    proxy = await startTcpProxy(hostAndPort(scratch.url));
    const config = loadConfig(
      {},
      {
        databaseUrl: proxy.urlFor(scratch.url),
        port: 0,
        logLevel: "silent",
        adminToken,
        postgres: { connectTimeoutMs: CONNECT_TIMEOUT_MS, statementTimeoutMs: STATEMENT_TIMEOUT_MS, poolSize: 4, preparedStatements: true },
      },
    );
    service = await startService(config);
    adminId = (await client(service.url, adminToken).graphql("{ me { uuid } }")).body.data.me.uuid;
  });
  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    await scratch?.drop();
  });

  const expectUnavailable = async () => {
    const admin = client(service.url, adminToken);
    const rest = await admin.get(`/v1/accounts/${adminId}/tool-releases`);
    expect(rest.status).toBe(503);
    expect(rest.body).toEqual({ code: "DATABASE_UNAVAILABLE", error: expect.any(String) });
    expect(rest.headers.get("retry-after")).toMatch(/^\d+$/);
    const graphql = await admin.graphql("{ me { id } }");
    expect(graphql.status).toBe(503);
    expect(graphql.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(graphql.body.errors?.[0].extensions).toEqual({ code: "DATABASE_UNAVAILABLE", http: { status: 503, headers: expect.any(Object) } });
    expect(rest.text + graphql.text).not.toMatch(/\bat \S+:\d+|Prisma|ECONN|postgres/i);
  };

  const waitUntilReady = async () => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const readiness = await client(service.url).get("/readyz");
      if (readiness.status === 200) return;
      if (Date.now() > deadline) throw new Error(`not ready again: ${readiness.text}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  it("serves normally through the proxy", async () => {
    expect((await client(service.url).get("/readyz")).body).toEqual({ status: "ready" });
    // Twice, and the GraphQL read too: both are kept by the read cache, which must not answer them
    // during the outages below, when the data version cannot be checked.
    for (let read = 0; read < 2; read++) {
      expect((await client(service.url, adminToken).get(`/v1/accounts/${adminId}/tool-releases`)).status).toBe(200);
      expect((await client(service.url, adminToken).graphql("{ me { id } }")).status).toBe(200);
    }
  });

  it("answers 503 DATABASE_UNAVAILABLE with Retry-After on REST and GraphQL while the database refuses connections", async () => {
    await proxy.setMode("refuse");
    try {
      await expectUnavailable();
      expect((await client(service.url).get("/readyz")).status).toBe(503);
    } finally {
      await proxy.setMode("forward");
    }
    await waitUntilReady();
    // Twice, and the GraphQL read too: both are kept by the read cache, which must not answer them
    // during the outages below, when the data version cannot be checked.
    for (let read = 0; read < 2; read++) {
      expect((await client(service.url, adminToken).get(`/v1/accounts/${adminId}/tool-releases`)).status).toBe(200);
      expect((await client(service.url, adminToken).graphql("{ me { id } }")).status).toBe(200);
    }
  });

  it("answers /readyz 503 within 2 s during a network partition, and requests 503 within the configured timeouts", async () => {
    await proxy.setMode("blackhole"); // open connections go silent; new ones are never answered
    try {
      const readinessStarted = performance.now();
      const readiness = await client(service.url).get("/readyz");
      expect(readiness.status).toBe(503);
      expect(performance.now() - readinessStarted).toBeLessThan(2000 + 500);

      const requestStarted = performance.now();
      await expectUnavailable();
      // Two requests, each bounded by the client-side query timeout (statement timeout + 1 s) or the connect timeout.
      expect(performance.now() - requestStarted).toBeLessThan(2 * (STATEMENT_TIMEOUT_MS + 1000 + CONNECT_TIMEOUT_MS) + 2000);
    } finally {
      await proxy.setMode("forward");
    }
    await waitUntilReady();
    expect((await client(service.url, adminToken).graphql("{ me { id } }")).status).toBe(200);
  });
});
