// GraphQL over HTTP as real clients send it (issue 9): statuses of partial results and request
// errors by media type, malformed global ids, queries over GET, automatic persisted queries.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HTTP_STATUS_BY_CODE } from "../../src/graphql/error-codes.js";
import { GRAPHQL_RESPONSE_JSON } from "../../src/http/graphql-endpoint/plugins/graphql-status.js";
import { globalId } from "../graphql/support.js";
import type { HttpResult } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

const UNKNOWN_UUID = "0190f5c2-0000-7000-8000-000000000000";
const APPLICATION_JSON = "application/json";

describeEachDatabase("GraphQL over HTTP", (provider) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(provider);
  });
  afterAll(() => service?.stopAndDrop());

  /** A request as a client sends it: the admin's bearer token unless `token: null`. */
  async function send(method: "GET" | "POST", body: Record<string, unknown>, options: { accept?: string; token?: string | null } = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { accept: options.accept ?? GRAPHQL_RESPONSE_JSON };
    const token = options.token === undefined ? service.adminToken : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let path = "/graphql";
    const init: RequestInit = { method, headers };
    if (method === "GET") {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(body)) search.set(name, typeof value === "string" ? value : JSON.stringify(value));
      path += `?${search}`;
    } else {
      headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(service.url + path, init);
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text.startsWith("{") ? JSON.parse(text) : undefined, text };
  }

  describe("status of partial results", () => {
    const PARTIAL = `{ me { email } grant(id: "${UNKNOWN_UUID}") { id } }`;

    for (const accept of [GRAPHQL_RESPONSE_JSON, APPLICATION_JSON]) {
      it(`answers 200 when data is non-null, errors keep their code and status (${accept})`, async () => {
        const result = await send("POST", { query: PARTIAL }, { accept });
        expect(result.status, result.text).toBe(200);
        expect(result.headers.get("content-type")).toBe(`${accept}; charset=utf-8`);
        expect(result.body.data).toEqual({ me: { email: "admin@toolgate.local" }, grant: null });
        expect(result.body.errors).toEqual([
          expect.objectContaining({
            path: ["grant"],
            extensions: expect.objectContaining({ code: "ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND", http: { status: 404 } }),
          }),
        ]);
      });
    }

    it("answers the error's status when an error nulls the whole data (application/graphql-response+json)", async () => {
      const result = await send("POST", { query: "{ me { email } }" }, { token: null });
      expect(result.body.data).toBeNull();
      expect(result.status).toBe(401);
      expect(result.headers.get("www-authenticate")).toBe('Bearer realm="toolgate"');
      expect(result.body.errors[0].extensions).toMatchObject({ code: "AUTH_UNAUTHORIZED", http: { status: 401 } });
    });

    it("answers 200 to application/json when an error nulls the whole data; the body keeps the status", async () => {
      const result = await send("POST", { query: "{ me { email } }" }, { token: null, accept: APPLICATION_JSON });
      expect(result.status, result.text).toBe(200);
      expect(result.body.data).toBeNull();
      expect(result.body.errors[0].extensions).toMatchObject({ code: "AUTH_UNAUTHORIZED", http: { status: 401 } });
    });

    const REQUEST_ERRORS = {
      "document parsing failure": { query: "{" },
      "document validation failure": { query: "{ notAField }" },
      "variable coercion failure": { query: "query ($id: UUID!) { grant(id: $id) { id } }", variables: { id: "not-a-uuid" } },
    };
    for (const [name, body] of Object.entries(REQUEST_ERRORS)) {
      it(`answers a ${name} 400 to application/graphql-response+json and 200 to application/json, REQUEST_INVALID in both`, async () => {
        for (const [accept, status] of [
          [GRAPHQL_RESPONSE_JSON, 400],
          [APPLICATION_JSON, 200],
        ] as const) {
          const result = await send("POST", body, { accept });
          expect({ accept, status: result.status, data: "data" in result.body }).toEqual({ accept, status, data: false });
          expect(result.body.errors[0].extensions).toEqual({ code: "REQUEST_INVALID", http: { status: 400 }, problems: [expect.any(String)] });
        }
      });
    }

    it("answers a request that is not well-formed (no query) 400 to both media types", async () => {
      for (const accept of [GRAPHQL_RESPONSE_JSON, APPLICATION_JSON]) {
        const result = await send("POST", { variables: {} }, { accept });
        expect({ accept, status: result.status }).toEqual({ accept, status: 400 });
        expect(result.body.errors[0].extensions.code).toBe("REQUEST_INVALID");
      }
    });
  });

  describe("response media type", () => {
    const CASES: [accept: string | undefined, mediaType: string][] = [
      // Apollo Client 3's default
      ["application/graphql-response+json,application/json;q=0.9", GRAPHQL_RESPONSE_JSON],
      // urql's default
      ["application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed", GRAPHQL_RESPONSE_JSON],
      ["application/json", APPLICATION_JSON],
      ["application/json, application/graphql-response+json;q=0.5", APPLICATION_JSON],
      // curl's default, and no header at all: what the graphql-http audits 47DE and 80D8 expect
      ["*/*", APPLICATION_JSON],
      [undefined, APPLICATION_JSON],
      ["text/html", APPLICATION_JSON],
    ];
    for (const [accept, mediaType] of CASES) {
      it(`serves ${mediaType} to Accept: ${accept ?? "(none)"}, with its status rule`, async () => {
        const headers: Record<string, string> = { authorization: `Bearer ${service.adminToken}`, "content-type": "application/json" };
        if (accept !== undefined) headers.accept = accept;
        const response = await fetch(`${service.url}/graphql`, { method: "POST", headers, body: JSON.stringify({ query: "{ notAField }" }) });
        expect(response.headers.get("content-type")).toBe(`${mediaType}; charset=utf-8`);
        expect(response.status).toBe(mediaType === APPLICATION_JSON ? 200 : 400);
        expect((await response.json()).errors[0].extensions.code).toBe("REQUEST_INVALID");
      });
    }
  });

  describe("malformed global ids", () => {
    it("node(id:) with a malformed id fails only its own field, at path [node]", async () => {
      const result = await send("POST", { query: '{ me { email } node(id: "not a global id") { __typename } }' });
      expect(result.status, result.text).toBe(200);
      expect(result.body.data).toEqual({ me: { email: "admin@toolgate.local" }, node: null });
      expect(result.body.errors).toEqual([expect.objectContaining({ path: ["node"], extensions: expect.objectContaining({ code: "REQUEST_INVALID" }) })]);
    });

    it("nodes(ids:) with one malformed id fails only its own entry, at path [nodes, 1]", async () => {
      const me = globalId("Account", "00000000-0000-0000-0000-000000000000");
      const result = await send("POST", { query: "query ($ids: [ID!]!) { me { email } nodes(ids: $ids) { __typename } }", variables: { ids: [me, "%%%"] } });
      expect(result.status, result.text).toBe(200);
      expect(result.body.data).toEqual({ me: { email: "admin@toolgate.local" }, nodes: [null, null] });
      expect(result.body.errors).toEqual([expect.objectContaining({ path: ["nodes", 1], extensions: expect.objectContaining({ code: "REQUEST_INVALID" }) })]);
    });
  });

  describe("GET", () => {
    it("answers a query sent with GET and no other header than the token (urql's default)", async () => {
      const result = await send("GET", {
        query: "query Me($first: Int) { me { email environments(first: $first) { nodes { name } } } }",
        variables: { first: 1 },
        operationName: "Me",
      });
      expect(result.status, result.text).toBe(200);
      expect(result.body).toEqual({ data: { me: { email: "admin@toolgate.local", environments: { nodes: [] } } } });
    });

    it("refuses a mutation sent with GET with 405 and allow: POST; nothing is executed", async () => {
      const { me } = (await send("POST", { query: "{ me { uuid } }" })).body.data;
      const mutation = `mutation { createEnvironment(input: { accountId: "${me.uuid}", name: "by-get" }) { uuid } }`;
      expect((await send("POST", { query: mutation.replace("by-get", "by-post") })).status, "the mutation is valid").toBe(200);
      const result = await send("GET", { query: mutation });
      expect(result.status, result.text).toBe(405);
      expect(result.headers.get("allow")).toBe("POST");
      expect(result.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/mutation operation from a POST request/),
        extensions: { code: "METHOD_NOT_ALLOWED" },
      });
      const environments = await send("POST", { query: "{ me { environments { nodes { name } } } }" });
      expect(environments.body.data.me.environments.nodes.map((environment: { name: string }) => environment.name)).toEqual(["by-post"]);
    });
  });

  describe("automatic persisted queries", () => {
    const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
    const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

    it("follows Apollo's protocol: unknown hash, then hash with query, then hash alone (POST and GET)", async () => {
      const query = `{ me { email } # ${Math.random()}\n}`;
      const extensions = persisted(sha256(query));

      const unknown = await send("POST", { extensions });
      expect(unknown.status).toBe(HTTP_STATUS_BY_CODE.PERSISTED_QUERY_NOT_FOUND);
      expect(unknown.body.errors).toEqual([
        expect.objectContaining({ message: "PersistedQueryNotFound", extensions: expect.objectContaining({ code: "PERSISTED_QUERY_NOT_FOUND" }) }),
      ]);

      const stored = await send("POST", { query, extensions });
      expect(stored.status).toBe(200);
      expect(stored.body).toEqual({ data: { me: { email: "admin@toolgate.local" } } });

      for (const method of ["POST", "GET"] as const) {
        const again = await send(method, { extensions });
        expect({ method, status: again.status, body: again.body }).toEqual({ method, status: 200, body: { data: { me: { email: "admin@toolgate.local" } } } });
      }
    });

    it("refuses a query whose hash does not match with PERSISTED_QUERY_MISMATCH and stores nothing", async () => {
      const query = `{ me { email } # ${Math.random()}\n}`;
      const wrongHash = sha256(`${query} `);
      const mismatch = await send("POST", { query, extensions: persisted(wrongHash) });
      expect(mismatch.status).toBe(HTTP_STATUS_BY_CODE.PERSISTED_QUERY_MISMATCH);
      expect(mismatch.body.errors[0].extensions).toMatchObject({ code: "PERSISTED_QUERY_MISMATCH", http: { status: 400 } });
      expect((await send("POST", { extensions: persisted(wrongHash) })).body.errors[0].extensions.code).toBe("PERSISTED_QUERY_NOT_FOUND");
    });
  });
});
