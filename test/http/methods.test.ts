// HEAD answers like GET without a body; OPTIONS lists a path's methods; any other method is 405
// with the same Allow, on every path the server serves.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { rawRequest, type RawResponse } from "../helpers/raw-http.js";
import { describeEachDatabase, type TestService } from "../helpers/service.js";
import { startWorldWithRelease, type World } from "../helpers/world.js";

/** Headers that must be equal between a GET and the HEAD standing for it. */
const REPRESENTATION_HEADERS = ["content-type", "content-length", "content-encoding", "etag", "cache-control", "vary", "www-authenticate", "transfer-encoding"];

function representationHeaders(response: RawResponse): Record<string, unknown> {
  return Object.fromEntries(REPRESENTATION_HEADERS.map((name) => [name, response.headers[name]]));
}

describeEachDatabase("HEAD and OPTIONS on /v1", (provider) => {
  let service: TestService;
  let world: World;
  let release: ToolRelease;
  beforeAll(async () => ({ service, world, release } = await startWorldWithRelease(provider)));
  afterAll(() => service?.stopAndDrop());

  const auth = () => ({ authorization: `Bearer ${world.owner.token}` });
  const getPaths = () => [
    `/v1/tool-releases/${release.id}`,
    `/v1/accounts/${world.owner.account.id}/tool-releases`,
    `/v1/envs/${world.environment.id}/tool-middlewares`,
  ];

  it("answers HEAD on every GET route with the GET's status and headers, and no body", async () => {
    for (const path of getPaths()) {
      for (const acceptEncoding of ["identity", "gzip", "br"]) {
        const headers = { ...auth(), "accept-encoding": acceptEncoding };
        const get = await rawRequest(service.url, "GET", path, headers);
        const head = await rawRequest(service.url, "HEAD", path, headers);
        expect(get.status, path).toBe(200);
        expect(head.status, path).toBe(200);
        expect(representationHeaders(head), `${path} ${acceptEncoding}`).toEqual(representationHeaders(get));
        expect(head.headers["content-length"], path).toBe(String(get.body.byteLength));
        expect(head.body.byteLength, path).toBe(0);
      }
    }
  });

  it("answers HEAD without a token like GET: 401 with the Bearer challenge and no body", async () => {
    const path = `/v1/tool-releases/${release.id}`;
    const get = await rawRequest(service.url, "GET", path);
    const head = await rawRequest(service.url, "HEAD", path);
    expect(get.status).toBe(401);
    expect(head.status).toBe(401);
    expect(representationHeaders(head)).toEqual(representationHeaders(get));
    expect(head.body.byteLength).toBe(0);
  });

  it("answers OPTIONS with 204 and Allow listing the path's methods, HEAD with GET, and OPTIONS", async () => {
    const expected: Record<string, string> = {
      [`/v1/tool-releases/${release.id}`]: "GET, HEAD, DELETE, OPTIONS",
      [`/v1/tool-releases/${release.id}/restore`]: "POST, OPTIONS",
      [`/v1/envs/${world.environment.id}/tool-middlewares`]: "GET, HEAD, POST, OPTIONS",
      [`/v1/envs/${world.environment.id}/tool-middlewares/validate`]: "POST, OPTIONS",
      [`/v1/accounts/${world.owner.account.id}/tool-releases`]: "GET, HEAD, OPTIONS",
    };
    for (const [path, allow] of Object.entries(expected)) {
      const options = await rawRequest(service.url, "OPTIONS", path);
      expect(options.status, path).toBe(204);
      expect(options.headers.allow, path).toBe(allow);
      expect(options.body.byteLength, path).toBe(0);
    }
  });

  it("keeps 405 METHOD_NOT_ALLOWED with Allow for methods a path does not offer, HEAD included", async () => {
    const put = await rawRequest(service.url, "PUT", `/v1/tool-releases/${release.id}`, auth(), "{}");
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe("GET, HEAD, DELETE, OPTIONS");
    expect(JSON.parse(put.body.toString())).toEqual({ code: "METHOD_NOT_ALLOWED", error: "method PUT not allowed; use GET, HEAD, DELETE, OPTIONS" });
    const head = await rawRequest(service.url, "HEAD", `/v1/tool-releases/${release.id}/restore`, auth());
    expect(head.status).toBe(405);
    expect(head.headers.allow).toBe("POST, OPTIONS");
    expect(head.body.byteLength).toBe(0);
  });

  it("answers a method a path does not offer with 405 and Allow on every path the server serves, TRACE and methods HTTP does not define included", async () => {
    const expected: Record<string, string> = {
      "/v1": "GET, HEAD, OPTIONS",
      "/healthz": "GET, HEAD, OPTIONS",
      "/readyz": "GET, HEAD, OPTIONS",
      "/openapi.json": "GET, HEAD, OPTIONS",
      "/docs": "GET, HEAD, OPTIONS",
      "/graphql": "GET, POST, OPTIONS",
      [`/v1/tool-releases/${release.id}`]: "GET, HEAD, DELETE, OPTIONS",
      [`/v1/tool-releases/${release.id}/restore`]: "POST, OPTIONS",
    };
    for (const [path, allow] of Object.entries(expected)) {
      for (const method of ["PUT", "TRACE", "QUERY", "PROPFIND", "FROBNICATE"]) {
        const answer = await rawRequest(service.url, method, path, auth());
        expect({ method, path, status: answer.status, allow: answer.headers.allow }).toEqual({ method, path, status: 405, allow });
        const body = JSON.parse(answer.body.toString()) as { code?: string; errors?: { extensions: { code: string } }[] };
        expect(body.code ?? body.errors?.[0]?.extensions.code, `${method} ${path}`).toBe("METHOD_NOT_ALLOWED");
      }
      const options = await rawRequest(service.url, "OPTIONS", path);
      expect({ path, status: options.status, allow: options.headers.allow }).toEqual({ path, status: 204, allow });
    }
  });

  it("answers any method on an unknown path with 404, TRACE and methods HTTP does not define included", async () => {
    for (const method of ["GET", "TRACE", "QUERY", "FROBNICATE"]) {
      const answer = await rawRequest(service.url, method, "/v1/nothing-here");
      expect({ method, status: answer.status, code: JSON.parse(answer.body.toString()).code }).toEqual({ method, status: 404, code: "NOT_FOUND" });
    }
  });

  it("answers OPTIONS on unknown paths with 404", async () => {
    const result = await rawRequest(service.url, "OPTIONS", "/v1/nothing-here");
    expect(result.status).toBe(404);
  });
});
