// /metrics: requests by route pattern or GraphQL operation and status, latency and SQL histograms,
// the PostgreSQL pool, process metrics; a bearer token or a port of its own when configured.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { createRequestMetrics, MAX_OPERATION_NAMES } from "../../src/metrics/request-metrics.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { startWorldWithRelease, type World } from "../helpers/world.js";
import { scrape, valueOf, type Sample } from "../helpers/metrics.js";

describeEachDatabase("/metrics", (provider) => {
  let service: TestService;
  let world: World;
  let release: ToolRelease;
  beforeAll(async () => ({ service, world, release } = await startWorldWithRelease(provider)));
  afterAll(() => service?.stopAndDrop());

  it("is open on the main port by default, in Prometheus' text format, with process metrics", async () => {
    const { status, contentType, samples } = await scrape(`${service.url}/metrics`);
    expect(status).toBe(200);
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    // The process's CPU since it started (this test runs in the service's process), as Prometheus defines it.
    const spent = process.cpuUsage();
    expect(valueOf(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(valueOf(samples, "process_cpu_seconds_total")).toBeLessThanOrEqual((spent.user + spent.system) / 1e6);
    expect(valueOf(samples, "process_cpu_seconds_total")).toBeGreaterThan(((spent.user + spent.system) / 1e6) * 0.5);
    expect(valueOf(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(service.metricsUrl).toBe(`${service.url}/metrics`);
  });

  it("counts REST requests by route pattern and status, never by raw path", async () => {
    await world.owner.http.get(`/v1/tool-releases/${release.id}`);
    await world.owner.http.get(`/v1/tool-releases/${release.id}`);
    await world.anonymous.get(`/v1/tool-releases/${release.id}`);
    await world.owner.http.get(`/v1/no-such/${release.id}`);
    const { samples, text } = await scrape(`${service.url}/metrics`);
    const route = "/v1/tool-releases/:releaseId";
    expect(valueOf(samples, "toolgate_http_requests_total", { route, method: "GET", status: "200" })).toBe(2);
    expect(valueOf(samples, "toolgate_http_requests_total", { route, method: "GET", status: "401" })).toBe(1);
    expect(valueOf(samples, "toolgate_http_requests_total", { route: "unmatched", method: "GET", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, "toolgate_http_request_duration_seconds_count", { route, status: "200" })).toBe(2);
    expect(valueOf(samples, "toolgate_http_request_duration_seconds_bucket", { route, status: "200", le: "+Inf" })).toBe(2);
    expect(valueOf(samples, "toolgate_http_request_duration_seconds_sum", { route, status: "200" })).toBeGreaterThan(0);
    expect(text).not.toContain(release.id);
    // REST series carry no operation label.
    expect(samples.find((sample) => sample.labels.route === route)?.labels).not.toHaveProperty("operation");
  });

  it("counts health checks, answered before the router, like every other route", async () => {
    const before = await scrape(`${service.url}/metrics`);
    const count = (samples: Sample[], method: string) => valueOf(samples, "toolgate_http_requests_total", { route: "/healthz", method, status: "200" }) ?? 0;
    await fetch(`${service.url}/healthz`);
    await fetch(`${service.url}/healthz`);
    await fetch(`${service.url}/healthz`, { method: "HEAD" });
    const after = await scrape(`${service.url}/metrics`);
    expect(count(after.samples, "GET") - count(before.samples, "GET")).toBe(2);
    expect(count(after.samples, "HEAD") - count(before.samples, "HEAD")).toBe(1);
    expect(valueOf(after.samples, "toolgate_http_request_duration_seconds_count", { route: "/healthz", method: "GET" })).toBe(count(after.samples, "GET"));
  });

  it("labels GraphQL requests by the executed operation's name, 'anonymous' without one", async () => {
    await world.owner.http.graphql("query WhoAmI { me { name } }");
    await world.owner.http.graphql("{ me { name } }");
    await world.owner.http.request("POST", "/graphql", { query: "query A { me { name } } query B { me { email } }", operationName: "B" });
    await world.owner.http.graphql("{ nope }");
    const { samples } = await scrape(`${service.url}/metrics`);
    const count = (operation: string, status = "200") =>
      valueOf(samples, "toolgate_http_requests_total", { route: "/graphql", operation, method: "POST", status });
    expect(count("WhoAmI")).toBe(1);
    expect(count("B")).toBe(1);
    expect(count("A")).toBeUndefined();
    expect(count("anonymous")).toBe(1);
    expect(count("anonymous", "400")).toBe(1);
  });

  it("times SQL statements at the driver adapter, by provider and statement kind", async () => {
    const { samples } = await scrape(`${service.url}/metrics`);
    expect(valueOf(samples, "toolgate_db_query_duration_seconds_count", { provider, statement: "select" })).toBeGreaterThan(0);
    expect(valueOf(samples, "toolgate_db_query_duration_seconds_count", { provider, statement: "insert" })).toBeGreaterThan(0);
    expect(valueOf(samples, "toolgate_db_query_duration_seconds_sum", { provider, statement: "select" })).toBeGreaterThan(0);
  });

  it(provider === "postgresql" ? "reports the PostgreSQL pool: open, idle, waiting and its size" : "reports no pool on SQLite (one connection)", async () => {
    const { samples } = await scrape(`${service.url}/metrics`);
    if (provider === "postgresql") {
      const open = valueOf(samples, "toolgate_db_pool_connections")!;
      expect(open).toBeGreaterThanOrEqual(1);
      expect(valueOf(samples, "toolgate_db_pool_idle_connections")).toBeLessThanOrEqual(open);
      expect(valueOf(samples, "toolgate_db_pool_waiting_queries")).toBe(0);
      expect(valueOf(samples, "toolgate_db_pool_max_connections")).toBe(10);
    } else {
      expect(samples.some((sample) => sample.name.startsWith("toolgate_db_pool_"))).toBe(false);
    }
  });
});

describeEachDatabase("/metrics protected", (provider) => {
  const token = "metrics-token-0123456789";

  describe("by a token", () => {
    let service: TestService;
    beforeAll(async () => (service = await startTestService(provider, { metrics: { token, port: undefined } })));
    afterAll(() => service?.stopAndDrop());

    it("answers 401 with a Bearer challenge without the token or with another, 200 with it", async () => {
      const refusedHeaders: Record<string, string>[] = [{}, { authorization: "Bearer not-the-token-at-all" }, { authorization: token }];
      for (const headers of refusedHeaders) {
        const refused = await scrape(`${service.url}/metrics`, headers);
        expect(refused.status).toBe(401);
        expect(JSON.parse(refused.text)).toMatchObject({ code: "AUTH_UNAUTHORIZED" });
      }
      const response = await fetch(`${service.url}/metrics`);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const allowed = await scrape(`${service.url}/metrics`, { authorization: `Bearer ${token}` });
      expect(allowed.status).toBe(200);
      expect(valueOf(allowed.samples, "toolgate_http_requests_total", { route: "/metrics", status: "401" })).toBe(4);
    });
  });

  describe("by a port of its own", () => {
    let service: TestService;
    beforeAll(async () => (service = await startTestService(provider, { metrics: { token, port: 0 } })));
    afterAll(() => service?.stopAndDrop());

    it("serves /metrics there (token still required) and not on the main port", async () => {
      expect(new URL(service.metricsUrl).port).not.toBe(String(service.port));
      expect((await scrape(service.metricsUrl)).status).toBe(401);
      const scraped = await scrape(service.metricsUrl, { authorization: `Bearer ${token}` });
      expect(scraped.status).toBe(200);
      expect(valueOf(scraped.samples, "toolgate_db_query_duration_seconds_count", { provider, statement: "select" })).toBeGreaterThan(0);
      const main = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(main.status).toBe(404);
      const elsewhere = await fetch(new URL("/graphql", service.metricsUrl), { headers: { authorization: `Bearer ${token}` } });
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.headers.get("x-content-type-options")).toBe("nosniff");
    });
  });
});

describe("request metric labels", () => {
  it(`keep at most ${MAX_OPERATION_NAMES} GraphQL operation names, later ones as 'other'`, () => {
    const metrics = createRequestMetrics();
    const labels = new Set<string>();
    for (let index = 0; index < MAX_OPERATION_NAMES + 20; index++) labels.add(metrics.operationLabel(`Operation${index}`));
    expect(labels.size).toBe(MAX_OPERATION_NAMES + 1);
    expect(labels.has("other")).toBe(true);
    expect(metrics.operationLabel("Operation0")).toBe("Operation0");
    expect(metrics.operationLabel(`Long${"x".repeat(100)}`)).toBe("other");
    expect(metrics.operationLabel(undefined)).toBe("anonymous");
    expect(metrics.operationLabel("")).toBe("anonymous");
  });
});
