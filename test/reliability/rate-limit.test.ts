// Rate limiting: a token bucket per API token, and per client address for requests without a valid
// token; 429 RATE_LIMITED with Retry-After on both surfaces; health checks are never limited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RateLimitConfig } from "../../src/config.js";
import { client, type HttpResult } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";

/** Three requests at once, then one every 1000 s: the fourth request within a test is refused. */
const BURST = 3;
const SLOW = { perSecond: 0.001, burst: BURST };

function expectRateLimited(result: HttpResult, shape: "rest" | "graphql"): void {
  expect(result.status).toBe(429);
  const retryAfter = Number(result.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  if (shape === "rest") expect(result.body).toEqual({ code: "RATE_LIMITED", error: expect.stringMatching(/too many requests/) });
  else expect(result.body.errors[0]).toMatchObject({ extensions: { code: "RATE_LIMITED", http: { status: 429 } } });
}

describeEachDatabase("rate limiting", (provider) => {
  let service: TestService;
  let world: World;

  async function restart(rateLimit: RateLimitConfig): Promise<void> {
    await service?.stopAndDrop();
    service = await startTestService(provider, { rateLimit });
    world = await createWorld(service);
  }
  afterAll(async () => service?.stopAndDrop());

  describe("per API token", () => {
    beforeAll(() => restart({ perToken: SLOW, anonymous: SLOW, trustProxy: false }));

    it("refuses a token's request beyond its burst with 429 RATE_LIMITED and Retry-After, on REST and GraphQL alike", async () => {
      const releases = `/v1/accounts/${world.owner.account.id}/tool-releases`;
      for (let index = 0; index < BURST - 1; index++) expect((await world.owner.http.get(releases)).status).toBe(200);
      expect((await world.owner.http.graphql("{ me { id } }")).status).toBe(200);
      expectRateLimited(await world.owner.http.get(releases), "rest");
      expectRateLimited(await world.owner.http.graphql("{ me { id } }"), "graphql");
    });

    it("keeps a bucket per token: another token of the same client is unaffected", async () => {
      expect((await world.viewer.http.get(`/v1/envs/${world.environment.id}/tool-middlewares`)).status).toBe(200);
    });

    it("never limits /healthz and /readyz", async () => {
      const anonymous = client(service.url);
      for (let index = 0; index < BURST * 3; index++) {
        expect((await anonymous.get("/healthz")).status).toBe(200);
        expect((await anonymous.get("/readyz")).status).toBe(200);
      }
    });
  });

  describe("per client address, without a valid token", () => {
    beforeAll(() => restart({ perToken: SLOW, anonymous: SLOW, trustProxy: false }));

    it("charges anonymous requests and requests with unknown tokens to the client's address", async () => {
      const anonymous = client(service.url);
      const forger = client(service.url, "tg_not_a_real_token");
      expect((await anonymous.get("/v1/tool-releases/00000000-0000-0000-0000-000000000000")).status).toBe(401);
      expect((await forger.get("/v1/tool-releases/00000000-0000-0000-0000-000000000000")).status).toBe(401);
      expect((await anonymous.graphql("{ __typename }")).status).toBe(200);
      expectRateLimited(await forger.get("/v1/tool-releases/00000000-0000-0000-0000-000000000000"), "rest");
      expectRateLimited(await anonymous.graphql("{ __typename }"), "graphql");
    });

    it("does not let an anonymous client pick its address with X-Forwarded-For unless a proxy is trusted", async () => {
      const spoofed = await client(service.url).request("GET", "/graphql?query=%7B__typename%7D", undefined, { "x-forwarded-for": "203.0.113.7" });
      expectRateLimited(spoofed, "graphql");
    });

    it("still serves a valid token from the same address", async () => {
      expect((await world.owner.http.graphql("{ me { id } }")).status).toBe(200);
    });
  });

  describe("behind a trusted proxy (TOOLGATE_TRUST_PROXY)", () => {
    beforeAll(() => restart({ perToken: SLOW, anonymous: SLOW, trustProxy: true }));

    it("keeps a bucket per forwarded client address, the last X-Forwarded-For entry", async () => {
      const from = (address: string) => ({ "x-forwarded-for": `198.51.100.1, ${address}` });
      const anonymous = client(service.url);
      for (let index = 0; index < BURST; index++)
        expect((await anonymous.request("GET", "/graphql?query=%7B__typename%7D", undefined, from("203.0.113.1"))).status).toBe(200);
      expectRateLimited(await anonymous.request("GET", "/graphql?query=%7B__typename%7D", undefined, from("203.0.113.1")), "graphql");
      expect((await anonymous.request("GET", "/graphql?query=%7B__typename%7D", undefined, from("203.0.113.2"))).status).toBe(200);
    });
  });

  describe("turned off", () => {
    beforeAll(() => restart({ perToken: { perSecond: 0, burst: 1 }, anonymous: { perSecond: 0, burst: 1 }, trustProxy: false }));

    it("serves every request when the rates are 0", async () => {
      for (let index = 0; index < 20; index++) expect((await world.anonymous.graphql("{ __typename }")).status).toBe(200);
    });
  });
});

describe("rate limit configuration", () => {
  it("reads the limits and the proxy switch from the environment, with generous defaults", async () => {
    const { loadConfig } = await import("../../src/config.js");
    expect(loadConfig({}).rateLimit).toEqual({ perToken: { perSecond: 500, burst: 1000 }, anonymous: { perSecond: 50, burst: 200 }, trustProxy: false });
    expect(
      loadConfig({
        TOOLGATE_RATE_LIMIT_PER_TOKEN: "0",
        TOOLGATE_RATE_LIMIT_PER_TOKEN_BURST: "5",
        TOOLGATE_RATE_LIMIT_ANONYMOUS: "2.5",
        TOOLGATE_RATE_LIMIT_ANONYMOUS_BURST: "10",
        TOOLGATE_TRUST_PROXY: "true",
      }).rateLimit,
    ).toEqual({ perToken: { perSecond: 0, burst: 5 }, anonymous: { perSecond: 2.5, burst: 10 }, trustProxy: true });
    expect(() => loadConfig({ TOOLGATE_RATE_LIMIT_PER_TOKEN: "-1", TOOLGATE_RATE_LIMIT_ANONYMOUS_BURST: "0" })).toThrow(
      /TOOLGATE_RATE_LIMIT_PER_TOKEN: must be 0/,
    );
  });
});
