// gzip and brotli following Accept-Encoding, against a running server: bodies of at least 1 KiB in
// JSON or HTML are compressed, decode to the identity bytes, and say Vary: Accept-Encoding.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_COMPRESSED_BYTES, negotiateContentCoding } from "../../src/http/pipeline/compression.js";
import type { ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { rawRequest, type RawResponse } from "../helpers/raw-http.js";
import { describeEachDatabase, type TestService } from "../helpers/service.js";
import { startWorldWithRelease, type World } from "../helpers/world.js";

function decoded(response: RawResponse): Buffer {
  const coding = response.headers["content-encoding"];
  return coding === "br" ? brotliDecompressSync(response.body) : coding === "gzip" ? gunzipSync(response.body) : response.body;
}

describe("negotiateContentCoding", () => {
  it.each([
    [null, undefined],
    ["", undefined],
    ["identity", undefined],
    ["gzip", "gzip"],
    ["br", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0, gzip;q=0", undefined],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["gzip;q=0.5, identity", undefined],
    ["gzip, identity;q=0.5", "gzip"],
    ["deflate", undefined],
    ["x-gzip", "gzip"],
    ["GZIP; Q=0.8", "gzip"],
  ])("%j → %s", (header, expected) => {
    expect(negotiateContentCoding(header)).toBe(expected);
  });
});

describeEachDatabase("compression", (provider) => {
  let service: TestService;
  let world: World;
  let release: ToolRelease;
  beforeAll(async () => ({ service, world, release } = await startWorldWithRelease(provider)));
  afterAll(() => service?.stopAndDrop());

  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(service.url, "GET", path, { authorization: `Bearer ${world.owner.token}`, ...headers });

  it("compresses a large JSON read with the coding Accept-Encoding prefers, decoding to the identity body", async () => {
    const path = `/v1/tool-releases/${release.id}`;
    const identity = await get(path, { "accept-encoding": "identity" });
    expect(identity.body.byteLength).toBeGreaterThan(MIN_COMPRESSED_BYTES);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.headers.vary).toMatch(/accept-encoding/i);
    for (const [acceptEncoding, coding] of [
      ["gzip", "gzip"],
      ["br", "br"],
      ["gzip, deflate, br", "br"],
      ["br;q=0.1, gzip", "gzip"],
    ] as const) {
      const compressed = await get(path, { "accept-encoding": acceptEncoding });
      expect(compressed.status).toBe(200);
      expect(compressed.headers["content-encoding"], acceptEncoding).toBe(coding);
      expect(compressed.headers.vary).toMatch(/accept-encoding/i);
      expect(compressed.headers["content-length"]).toBe(String(compressed.body.byteLength));
      expect(compressed.body.byteLength).toBeLessThan(identity.body.byteLength);
      expect(decoded(compressed)).toEqual(identity.body);
      // Each coding is its own representation with its own ETag.
      expect(compressed.headers.etag).not.toBe(identity.headers.etag);
    }
  });

  it("sends identity when Accept-Encoding prefers it, or is absent", async () => {
    const path = `/v1/tool-releases/${release.id}`;
    for (const headers of [{}, { "accept-encoding": "gzip;q=0.5, identity" }, { "accept-encoding": "deflate" }] as Record<string, string>[]) {
      const response = await get(path, headers);
      expect(response.headers["content-encoding"], JSON.stringify(headers)).toBeUndefined();
      expect(JSON.parse(response.body.toString()).id).toBe(release.id);
    }
  });

  it("leaves bodies under 1 KiB, 304s and HEAD bodies uncompressed", async () => {
    const small = await get("/v1/tool-releases/00000000-0000-4000-8000-000000000000", { "accept-encoding": "br" });
    expect(small.status).toBe(404);
    expect(small.body.byteLength).toBeLessThan(MIN_COMPRESSED_BYTES);
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(small.body.toString()).code).toBe("TOOL_RELEASE_NOT_FOUND");
    const path = `/v1/tool-releases/${release.id}`;
    const compressed = await get(path, { "accept-encoding": "br" });
    const notModified = await get(path, { "accept-encoding": "br", "if-none-match": compressed.headers.etag! });
    expect(notModified.status).toBe(304);
    expect(notModified.headers["content-encoding"]).toBeUndefined();
    expect(notModified.headers.vary).toMatch(/accept-encoding/i);
    expect(notModified.body.byteLength).toBe(0);
    const head = await rawRequest(service.url, "HEAD", path, { authorization: `Bearer ${world.owner.token}`, "accept-encoding": "br" });
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.headers["content-length"]).toBe(String(compressed.body.byteLength));
    expect(head.body.byteLength).toBe(0);
  });

  it("streams large answers that are not cacheable reads (POST /graphql) through zlib, keeping x-request-id", async () => {
    const query = `{ toolRelease(id: "${release.id}") { definition } }`;
    const send = (acceptEncoding: string) =>
      rawRequest(
        service.url,
        "POST",
        "/graphql",
        {
          authorization: `Bearer ${world.owner.token}`,
          "content-type": "application/json",
          accept: "application/json",
          "accept-encoding": acceptEncoding,
          "x-request-id": `compressed-${acceptEncoding}`,
        },
        JSON.stringify({ query }),
      );
    const identity = await send("identity");
    expect(identity.status).toBe(200);
    expect(identity.body.byteLength).toBeGreaterThan(MIN_COMPRESSED_BYTES);
    for (const coding of ["gzip", "br"]) {
      const compressed = await send(coding);
      expect(compressed.headers["content-encoding"]).toBe(coding);
      expect(compressed.headers["transfer-encoding"]).toBe("chunked");
      expect(compressed.headers["x-request-id"]).toBe(`compressed-${coding}`);
      expect(compressed.headers["cache-control"]).toBe("no-store");
      expect(decoded(compressed)).toEqual(identity.body);
    }
  });

  it("sends a large write answer with its Content-Length when uncompressed, and through zlib when asked", async () => {
    const environment = await world.environmentOf(world.owner, { name: "compressed-writes" });
    const grant = (acceptEncoding: string) =>
      rawRequest(
        service.url,
        "POST",
        `/v1/envs/${environment.id}/tool-middlewares`,
        { authorization: `Bearer ${world.owner.token}`, "content-type": "application/json", "accept-encoding": acceptEncoding },
        JSON.stringify({ release: { type: "ById", releaseId: release.id } }),
      );
    const identity = await grant("identity");
    expect(identity.status).toBe(200);
    expect(identity.body.byteLength).toBeGreaterThan(MIN_COMPRESSED_BYTES);
    expect(identity.headers["content-length"]).toBe(String(identity.body.byteLength));
    expect(identity.headers["transfer-encoding"]).toBeUndefined();
    expect(JSON.parse(identity.body.toString()).grant.toolMiddlewareReleaseId).toBe(release.id);
    const compressed = await grant("gzip");
    expect(compressed.status).toBe(200);
    expect(compressed.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(decoded(compressed).toString()).grant.id).toBe(JSON.parse(identity.body.toString()).grant.id);
  });

  it("passes event streams (GraphQL over SSE) through uncompressed and unbuffered", async () => {
    const response = await rawRequest(
      service.url,
      "POST",
      "/graphql",
      {
        authorization: `Bearer ${world.owner.token}`,
        "content-type": "application/json",
        accept: "text/event-stream",
        "accept-encoding": "br",
      },
      JSON.stringify({ query: "{ me { email } }" }),
    );
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/event-stream/);
    // Yoga marks event streams `content-encoding: none` so that proxies do not buffer them.
    expect(response.headers["content-encoding"] ?? "identity").not.toMatch(/^(?:br|gzip)$/);
    expect(response.body.toString()).toContain(world.owner.account.email);
  });

  it("compresses the GraphiQL page, the same bytes each time", async () => {
    const page = (acceptEncoding: string) => rawRequest(service.url, "GET", "/graphql", { accept: "text/html", "accept-encoding": acceptEncoding });
    const identity = await page("identity");
    expect(identity.status).toBe(200);
    expect(identity.body.byteLength).toBeGreaterThan(MIN_COMPRESSED_BYTES);
    for (const coding of ["br", "gzip"]) {
      const first = await page(coding);
      expect(first.headers["content-encoding"]).toBe(coding);
      expect(first.body.byteLength).toBeLessThan(identity.body.byteLength);
      expect(decoded(first).equals(identity.body)).toBe(true);
      const second = await page(coding);
      expect(second.body.equals(first.body)).toBe(true);
      expect(second.headers.etag).toBe(first.headers.etag);
    }
  });
});
