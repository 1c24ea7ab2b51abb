// CORS from TOOLGATE_CORS_ORIGINS, the same on /graphql and /v1; security headers on every response.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { rawRequest } from "../helpers/raw-http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, startWorldWithRelease, type World } from "../helpers/world.js";

const APP = "https://app.example.com";
const ELSEWHERE = "https://elsewhere.example.com";
const QUERY = JSON.stringify({ query: "{ me { name } }" });

describeEachDatabase("CORS with allowed origins", (provider) => {
  let service: TestService;
  let world: World;
  let release: ToolRelease;
  beforeAll(async () => {
    service = await startTestService(provider, { corsOrigins: [APP, "http://localhost:5173"] });
    world = await createWorld(service);
    release = await world.publish(world.owner, "git-lite", "2.43.0", { immutable: true });
  });
  afterAll(() => service?.stopAndDrop());

  const preflight = (path: string, origin: string, method = "POST") =>
    rawRequest(service.url, "OPTIONS", path, {
      origin,
      "access-control-request-method": method,
      "access-control-request-headers": "authorization, content-type",
    });

  it("answers preflights from an allowed origin on /graphql and /v1 alike, without a token", async () => {
    for (const [path, methods] of [
      ["/graphql", "GET, POST, OPTIONS"],
      [`/v1/tool-releases/${release.id}`, "GET, HEAD, DELETE, OPTIONS"],
      [`/v1/envs/${world.environment.id}/tool-middlewares`, "GET, HEAD, POST, OPTIONS"],
    ] as const) {
      const response = await preflight(path, APP);
      expect(response.status, path).toBe(204);
      expect(response.headers, path).toMatchObject({
        "access-control-allow-origin": APP,
        "access-control-allow-methods": methods,
        "access-control-max-age": "600",
        allow: methods,
      });
      expect(response.headers["access-control-allow-headers"]).toMatch(/authorization/);
      expect(response.headers["access-control-allow-headers"]).toMatch(/content-type/);
      expect(response.headers.vary).toMatch(/Origin/);
      expect(response.headers["access-control-allow-credentials"]).toBeUndefined();
    }
  });

  it("gives other origins no Allow-Origin, on preflights and requests, and says the answer varies by Origin", async () => {
    const refusedPreflight = await preflight("/graphql", ELSEWHERE);
    expect(refusedPreflight.status).toBe(204);
    expect(refusedPreflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(refusedPreflight.headers.vary).toMatch(/Origin/);
    const request = await rawRequest(
      service.url,
      "POST",
      "/graphql",
      { origin: ELSEWHERE, authorization: `Bearer ${world.owner.token}`, "content-type": "application/json" },
      QUERY,
    );
    expect(request.status).toBe(200);
    expect(request.headers["access-control-allow-origin"]).toBeUndefined();
    expect(request.headers.vary).toMatch(/Origin/);
  });

  it("lets an allowed origin read the answer and its ETag, request id and Retry-After, also on 401 and 304", async () => {
    const auth = { origin: APP, authorization: `Bearer ${world.owner.token}` };
    const path = `/v1/tool-releases/${release.id}`;
    const read = await rawRequest(service.url, "GET", path, auth);
    expect(read.status).toBe(200);
    expect(read.headers["access-control-allow-origin"]).toBe(APP);
    expect(read.headers["access-control-expose-headers"]).toMatch(/etag/);
    expect(read.headers["access-control-expose-headers"]).toMatch(/x-request-id/);
    expect(read.headers["access-control-expose-headers"]).toMatch(/retry-after/);
    expect(read.headers.vary).toMatch(/Accept-Encoding/);
    expect(read.headers.vary).toMatch(/Origin/);
    const revalidated = await rawRequest(service.url, "GET", path, { ...auth, "if-none-match": String(read.headers.etag) });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers["access-control-allow-origin"]).toBe(APP);
    const unauthenticated = await rawRequest(service.url, "GET", path, { origin: APP });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers["access-control-allow-origin"]).toBe(APP);
    const graphql = await rawRequest(service.url, "POST", "/graphql", { ...auth, "content-type": "application/json" }, QUERY);
    expect(graphql.headers["access-control-allow-origin"]).toBe(APP);
  });

  it("leaves paths outside the API alone", async () => {
    const health = await rawRequest(service.url, "GET", "/healthz", { origin: APP });
    expect(health.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("CORS with any origin (*)", () => {
  let service: TestService;
  beforeAll(async () => (service = await startTestService("sqlite", { corsOrigins: ["*"] })));
  afterAll(() => service?.stopAndDrop());

  it("answers Allow-Origin * to every origin, never with credentials", async () => {
    const response = await rawRequest(service.url, "OPTIONS", "/graphql", { origin: ELSEWHERE, "access-control-request-method": "POST" });
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["access-control-allow-credentials"]).toBeUndefined();
    const request = await rawRequest(service.url, "POST", "/graphql", { origin: ELSEWHERE, "content-type": "application/json" }, QUERY);
    expect(request.headers["access-control-allow-origin"]).toBe("*");
  });
});

describeEachDatabase("without CORS origins (the default) and security headers", (provider) => {
  let service: TestService;
  let world: World;
  let release: ToolRelease;
  beforeAll(async () => ({ service, world, release } = await startWorldWithRelease(provider)));
  afterAll(() => service?.stopAndDrop());

  it("sends no CORS headers, on /graphql (Yoga's own CORS is off) as on /v1", async () => {
    for (const path of ["/graphql", `/v1/tool-releases/${release.id}`]) {
      const response = await rawRequest(service.url, "OPTIONS", path, { origin: APP, "access-control-request-method": "GET" });
      expect(response.status, path).toBe(204);
      expect(
        Object.keys(response.headers).filter((name) => name.startsWith("access-control-")),
        path,
      ).toEqual([]);
    }
    const graphqlOptions = await rawRequest(service.url, "OPTIONS", "/graphql");
    expect(graphqlOptions.headers.allow).toBe("GET, POST, OPTIONS");
  });

  it("puts nosniff, no-referrer, no framing and a CSP that allows nothing on every JSON answer", async () => {
    const auth = { authorization: `Bearer ${world.owner.token}` };
    const path = `/v1/tool-releases/${release.id}`;
    const read = await rawRequest(service.url, "GET", path, auth);
    const answers = [
      await rawRequest(service.url, "GET", "/healthz"),
      await rawRequest(service.url, "GET", "/readyz"),
      read,
      await rawRequest(service.url, "GET", path, { ...auth, "if-none-match": String(read.headers.etag) }),
      await rawRequest(service.url, "GET", path),
      await rawRequest(service.url, "GET", "/v1/nothing-here"),
      await rawRequest(service.url, "PUT", path, auth, "{}"),
      await rawRequest(service.url, "POST", "/graphql", { ...auth, "content-type": "application/json" }, QUERY),
      await rawRequest(service.url, "GET", "/metrics"),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 304, 401, 404, 405, 200, 200]);
    for (const answer of answers) {
      expect(answer.headers).toMatchObject({
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "x-frame-options": "DENY",
        "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
      });
    }
  });

  it("puts them on what is answered before the fetch handler too (TRACE, oversized headers)", async () => {
    const trace = await rawRequest(service.url, "TRACE", "/healthz");
    const oversized = await rawRequest(service.url, "GET", "/healthz", { "x-padding": "a".repeat(20_000) });
    expect([trace.status, oversized.status]).toEqual([405, 431]);
    for (const answer of [trace, oversized]) {
      expect(answer.headers).toMatchObject({ "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "x-frame-options": "DENY" });
      expect(answer.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });

  it("gives GraphiQL the pages' CSP: no inline script, scripts and workers from our origin only", async () => {
    const page = await rawRequest(service.url, "GET", "/graphql", { accept: "text/html" });
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const policy = String(page.headers["content-security-policy"]);
    const directive = (name: string) => policy.split("; ").find((candidate) => candidate.startsWith(`${name} `));
    expect(directive("script-src")).toBe("script-src 'self'");
    expect(directive("worker-src")).toBe("worker-src 'self'");
    expect(directive("connect-src")).toBe("connect-src 'self'");
    expect(directive("frame-ancestors")).toBe("frame-ancestors 'none'");
    // Scripts are files of ours; the one <script> with a body is JSON, which browsers do not run.
    const scripts = [...page.body.toString().matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map(([, attributes, text]) => ({
      attributes: attributes!,
      text: text!,
    }));
    expect(scripts.filter(({ attributes }) => / src="\/graphiql\/assets\/[^"]+\.js"/.test(attributes))).toHaveLength(2);
    expect(scripts.filter(({ text }) => text.trim() !== "").map(({ attributes }) => attributes)).toEqual([
      ' type="application/json" id="graphiql-configuration"',
    ]);
    expect(page.headers["x-frame-options"]).toBe("DENY");
  });
});
