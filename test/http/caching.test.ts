// ETag, If-None-Match and Cache-Control: successful reads of /v1 and /graphql carry a strong ETag
// (the SHA-256 of the body; a /v1 body's is taken over its pieces, each stored definition standing
// as its digest) and `private, no-cache`; a matching If-None-Match answers 304 without a body;
// errors and writes are `no-store`.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ToolRelease } from "../../src/db/generated/sqlite/client.js";
import { rawRequest, type RawResponse } from "../helpers/raw-http.js";
import { describeEachDatabase, type TestService } from "../helpers/service.js";
import { startWorldWithRelease, type World } from "../helpers/world.js";

const sha256Tag = (body: Buffer) => `"${createHash("sha256").update(body).digest("base64url")}"`;
/** A /v1 body's tag: a SHA-256, base64url, that follows the body (json-body.test.ts has how it is taken). */
const PIECES_TAG = /^"[A-Za-z0-9_-]{43}"$/;

function expectNotModified(response: RawResponse, etag: string): void {
  expect(response.status).toBe(304);
  expect(response.body.byteLength).toBe(0);
  expect(response.headers.etag).toBe(etag);
  expect(response.headers["cache-control"]).toBe("private, no-cache");
  expect(response.headers["content-type"]).toBeUndefined();
  expect(response.headers["content-encoding"]).toBeUndefined();
}

describeEachDatabase("ETag and Cache-Control", (provider) => {
  let service: TestService;
  let world: World;
  let release: ToolRelease;
  beforeAll(async () => ({ service, world, release } = await startWorldWithRelease(provider)));
  afterAll(() => service?.stopAndDrop());

  const get = (path: string, headers: Record<string, string> = {}, token = world.owner.token) =>
    rawRequest(service.url, "GET", path, { authorization: `Bearer ${token}`, ...headers });

  it("tags a release with a SHA-256 of its body's pieces, marks it private, no-cache, and answers If-None-Match with 304", async () => {
    const path = `/v1/tool-releases/${release.id}`;
    const first = await get(path);
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(PIECES_TAG);
    expect(first.headers["cache-control"]).toBe("private, no-cache");
    expect((await get(path)).headers.etag).toBe(first.headers.etag);
    const etag = first.headers.etag!;
    expectNotModified(await get(path, { "if-none-match": etag }), etag);
    expectNotModified(await get(path, { "if-none-match": `"other", W/${etag}` }), etag);
    expectNotModified(await get(path, { "if-none-match": "*" }), etag);
    expectNotModified(await rawRequest(service.url, "HEAD", path, { authorization: `Bearer ${world.owner.token}`, "if-none-match": etag }), etag);
    const changed = await get(path, { "if-none-match": '"something-else"' });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual(first.body);
  });

  it("answers 200 with a new ETag once the release changes (de-published), not 304", async () => {
    const other = await world.publish(world.owner, "git-lite", "2.44.0");
    const path = `/v1/tool-releases/${other.id}`;
    const before = await get(path);
    const depublish = await rawRequest(service.url, "DELETE", path, { authorization: `Bearer ${world.owner.token}` });
    expect(depublish.status).toBe(200);
    const after = await get(path, { "if-none-match": before.headers.etag! });
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body.toString()).lifecycle).toBe("de-published");
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it("tags list GETs, and a list's ETag changes when an item is added", async () => {
    const path = `/v1/accounts/${world.owner.account.id}/tool-releases`;
    const before = await get(path);
    expect(before.status).toBe(200);
    expect(before.headers.etag).toMatch(PIECES_TAG);
    expectNotModified(await get(path, { "if-none-match": before.headers.etag! }), before.headers.etag!);
    await world.publish(world.owner, "git-lite", "2.45.0");
    const after = await get(path, { "if-none-match": before.headers.etag! });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const grants = await get(`/v1/envs/${world.environment.id}/tool-middlewares`);
    expect(grants.headers.etag).toMatch(PIECES_TAG);
    expectNotModified(await get(`/v1/envs/${world.environment.id}/tool-middlewares`, { "if-none-match": grants.headers.etag! }), grants.headers.etag!);
  });

  it("tags a grant list the same on every read, its definitions spliced from cache, and a new tag once a grant changes", async () => {
    const path = `/v1/envs/${world.environment.id}/tool-middlewares`;
    for (const version of ["3.0.0", "3.1.0"]) {
      const granted = await world.publish(world.owner, "cached-list", version);
      const created = await rawRequest(
        service.url,
        "POST",
        path,
        { authorization: `Bearer ${world.owner.token}`, "content-type": "application/json" },
        JSON.stringify({ release: { type: "ById", releaseId: granted.id } }),
      );
      expect(created.status, created.body.toString()).toBe(200);
    }
    const first = await get(path);
    const again = await get(path);
    expect(again.body).toEqual(first.body);
    expect(first.headers.etag).toMatch(PIECES_TAG);
    expect(again.headers.etag).toBe(first.headers.etag);
    const grant = JSON.parse(first.body.toString()).values[0].grant;
    expect(
      (await rawRequest(service.url, "DELETE", `/v1/environment-tool-middleware-grants/${grant.id}`, { authorization: `Bearer ${world.owner.token}` })).status,
    ).toBe(204);
    const after = await get(path, { "if-none-match": first.headers.etag! });
    expect(after.status).toBe(200);
    expect(after.headers.etag).toMatch(PIECES_TAG);
    expect(after.headers.etag).not.toBe(first.headers.etag);
  });

  it("never answers 304 to a token that may not see the resource", async () => {
    const path = `/v1/tool-releases/${release.id}`;
    const { headers } = await get(path);
    const stranger = await world.member();
    const privateRelease = await world.publish(stranger, "hidden-tool", "1.0.0");
    const own = await get(`/v1/tool-releases/${privateRelease.id}`, {}, stranger.token);
    const peek = await get(`/v1/tool-releases/${privateRelease.id}`, { "if-none-match": own.headers.etag! }, world.viewer.token);
    expect(peek.status).toBe(404);
    const anonymous = await rawRequest(service.url, "GET", path, { "if-none-match": headers.etag! });
    expect(anonymous.status).toBe(401);
  });

  it("marks errors, writes and health checks no-store and gives them no ETag", async () => {
    const answers = [
      await rawRequest(service.url, "GET", `/v1/tool-releases/${release.id}`),
      await get("/v1/tool-releases/00000000-0000-4000-8000-000000000000"),
      await get("/v1/nothing-here"),
      await rawRequest(service.url, "PUT", `/v1/tool-releases/${release.id}`),
      await rawRequest(
        service.url,
        "POST",
        `/v1/envs/${world.environment.id}/tool-middlewares`,
        {
          authorization: `Bearer ${world.owner.token}`,
          "content-type": "application/json",
        },
        JSON.stringify({ release: { type: "ById", releaseId: release.id }, automatic: false }),
      ),
      await rawRequest(service.url, "GET", "/healthz"),
      await rawRequest(service.url, "GET", "/readyz"),
      await rawRequest(service.url, "OPTIONS", `/v1/tool-releases/${release.id}`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([401, 404, 404, 405, 200, 200, 200, 204]);
    for (const answer of answers) {
      expect(answer.headers["cache-control"]).toBe("no-store");
      expect(answer.headers.etag).toBeUndefined();
    }
  });

  it("tags GraphQL GET queries and answers their If-None-Match with 304; POST stays no-store", async () => {
    const path = `/graphql?query=${encodeURIComponent("{ me { email } }")}`;
    // The CSRF header is harmless if GET queries no longer need it.
    const headers = { accept: "application/json", "x-graphql-csrf": "1" };
    const first = await get(path, headers);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body.toString()).data.me.email).toBe(world.owner.account.email);
    expect(first.headers.etag).toBe(sha256Tag(first.body));
    expect(first.headers["cache-control"]).toBe("private, no-cache");
    expectNotModified(await get(path, { ...headers, "if-none-match": first.headers.etag! }), first.headers.etag!);
    const post = await rawRequest(
      service.url,
      "POST",
      "/graphql",
      { authorization: `Bearer ${world.owner.token}`, "content-type": "application/json" },
      JSON.stringify({ query: "{ me { email } }" }),
    );
    expect(post.status).toBe(200);
    expect(post.headers["cache-control"]).toBe("no-store");
    expect(post.headers.etag).toBeUndefined();
  });

  it("tags the GraphiQL page and answers its revalidation with 304", async () => {
    const page = await rawRequest(service.url, "GET", "/graphql", { accept: "text/html" });
    expect(page.status).toBe(200);
    expect(page.headers.etag).toBe(sha256Tag(page.body));
    expectNotModified(await rawRequest(service.url, "GET", "/graphql", { accept: "text/html", "if-none-match": page.headers.etag! }), page.headers.etag!);
  });
});
