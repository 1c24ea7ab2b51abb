import { afterAll, beforeAll, expect, it } from "vitest";
import { client } from "../helpers/http.js";
import { rawRequest, type RawResponse } from "../helpers/raw-http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

describeEachDatabase("HTTP server", (provider) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(provider);
  });
  afterAll(() => service?.stopAndDrop());

  it("answers /healthz and /readyz", async () => {
    const anonymous = client(service.url);
    expect((await anonymous.get("/healthz")).body).toEqual({ status: "ok" });
    expect((await anonymous.get("/readyz")).body).toEqual({ status: "ready" });
  });

  it("answers GET /healthz on node:http with exactly what the fetch pipeline answers for /healthz?…", async () => {
    const direct = await rawRequest(service.url, "GET", "/healthz");
    const pipeline = await rawRequest(service.url, "GET", "/healthz?via=pipeline");
    const comparable = ({ status, headers, body }: RawResponse) => {
      const { date: _date, "x-request-id": requestId, ...rest } = headers;
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      return { status, headers: rest, body: body.toString() };
    };
    expect(comparable(direct)).toEqual(comparable(pipeline));
    expect(comparable(direct)).toMatchObject({
      status: 200,
      body: '{"status":"ok"}',
      headers: { "content-type": "application/json", "cache-control": "no-store" },
    });
  });

  it("answers HEAD /healthz with GET's headers and no body", async () => {
    const get = await rawRequest(service.url, "GET", "/healthz", { "x-request-id": "probe-1" });
    const head = await rawRequest(service.url, "HEAD", "/healthz", { "x-request-id": "probe-1" });
    const { date: _getDate, ...getHeaders } = get.headers;
    const { date: _headDate, ...headHeaders } = head.headers;
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(headHeaders).toEqual(getHeaders);
  });

  it("echoes x-request-id, or assigns one", async () => {
    const echoed = await client(service.url).request("GET", "/healthz", undefined, { "x-request-id": "abc-123" });
    expect(echoed.headers.get("x-request-id")).toBe("abc-123");
    const assigned = await client(service.url).get("/healthz");
    expect(assigned.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers unknown routes with 404 NOT_FOUND in the spec's error shape", async () => {
    const result = await client(service.url, service.adminToken).get("/v1/nothing-here");
    expect(result.status).toBe(404);
    expect(result.body).toEqual({ code: "NOT_FOUND", error: expect.any(String) });
  });

  it("serves GraphQL with the bootstrap admin's token", async () => {
    const result = await client(service.url, service.adminToken).graphql("{ __typename me { email admin } }");
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({ __typename: "Query", me: { email: "admin@toolgate.local", admin: true } });
  });

  it("rejects GraphQL fields without a token with 401 AUTH_UNAUTHORIZED", async () => {
    const result = await client(service.url).graphql("{ me { id } }");
    expect(result.status).toBe(401);
    expect(result.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(result.body.errors?.[0].extensions).toEqual({ code: "AUTH_UNAUTHORIZED", http: { status: 401, headers: expect.any(Object) } });
  });

  it("serves GraphiQL to browsers", async () => {
    const result = await client(service.url).request("GET", "/graphql", undefined, { accept: "text/html" });
    expect(result.status).toBe(200);
    expect(result.text).toContain("graphiql");
  });
});
