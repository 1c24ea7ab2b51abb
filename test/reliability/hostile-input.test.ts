// Hostile input: oversized bodies and lists, odd methods, malformed parameters and content types get
// a clear 4xx in the surface's JSON error shape, never a 5xx or a stack trace.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRAPHQL_LIMITS } from "../../src/graphql/armor.js";
import { REQUEST_BODY_LIMIT_BYTES } from "../../src/domain/plans.js";
import { definitionFor } from "../fixtures/definitions/index.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";
import { createWorld, type World } from "../helpers/world.js";

interface RawResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** node:http rather than fetch: fetch refuses TRACE, and a fresh connection per request keeps refusals independent. */
function raw(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawResult> {
  return new Promise((resolve, reject) => {
    const sized = body === undefined ? headers : { "content-length": String(Buffer.byteLength(body)), ...headers };
    const req = httpRequest(baseUrl + path, { method, headers: sized, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    if (body !== undefined) req.end(body);
    else req.end();
  });
}

/** The spec's REST error shape: {code, error}, or {code, errors: [...]} for 400. */
function expectRestError(result: RawResult, status: number, code: string): void {
  expect(result.status).toBe(status);
  expect(result.headers["content-type"]).toMatch(/^application\/json/);
  const body = JSON.parse(result.text) as Record<string, unknown>;
  expect(body.code).toBe(code);
  if (status === 400) expect(body.errors).toEqual(expect.arrayContaining([expect.any(String)]));
  else expect(body.error).toEqual(expect.any(String));
}

/** /graphql's error shape: {errors: [{message, extensions: {code, http: {status}}}]}. */
function expectGraphQLError(result: RawResult, status: number, code: string, message?: RegExp): void {
  expect(result.status).toBe(status);
  expect(result.headers["content-type"]).toMatch(/^application\/json/);
  const body = JSON.parse(result.text) as { errors: { message: string; extensions: { code: string; http: { status: number } } }[] };
  expect(body.errors[0]).toMatchObject({ extensions: { code, http: { status } } });
  if (message) expect(body.errors[0]!.message).toMatch(message);
}

const json = { "content-type": "application/json" };

describeEachDatabase("hostile input", (provider) => {
  let service: TestService;
  let world: World;
  let admin: Record<string, string>;

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
    admin = { ...json, authorization: `Bearer ${service.adminToken}` };
  });
  afterAll(async () => service?.stopAndDrop());

  describe("request body size", () => {
    const overCap = () => Buffer.alloc(REQUEST_BODY_LIMIT_BYTES + 1, " ");

    it("answers a /graphql body over 8 MiB with 413 PAYLOAD_TOO_LARGE before parsing it", async () => {
      const result = await raw(service.url, "POST", "/graphql", json, overCap());
      expectGraphQLError(result, 413, "PAYLOAD_TOO_LARGE", /8 MiB/);
      expect(result.headers.connection).toBe("close");
    });

    it("counts a chunked /graphql body without content-length as it streams", async () => {
      const result = await new Promise<RawResult>((resolve, reject) => {
        const req = httpRequest(service.url + "/graphql", { method: "POST", headers: { ...json, "transfer-encoding": "chunked" }, agent: false }, (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        });
        req.on("error", reject);
        const chunk = Buffer.alloc(1024 * 1024, " ");
        for (let sent = 0; sent <= REQUEST_BODY_LIMIT_BYTES; sent += chunk.length) req.write(chunk);
        req.end();
      });
      expectGraphQLError(result, 413, "PAYLOAD_TOO_LARGE");
    });

    it("still executes a /graphql body just under the cap", async () => {
      const body = JSON.stringify({ query: "{ me { id } }", variables: {} });
      const padded = body.slice(0, -1) + " ".repeat(REQUEST_BODY_LIMIT_BYTES - body.length) + "}";
      const result = await raw(service.url, "POST", "/graphql", admin, padded);
      expect(result.status).toBe(200);
      expect(JSON.parse(result.text).data.me.id).toEqual(expect.any(String));
    });

    it("answers a REST body over 8 MiB with 413 PAYLOAD_TOO_LARGE", async () => {
      const result = await raw(service.url, "POST", `/v1/envs/${world.environment.id}/tool-middlewares/validate`, admin, overCap());
      expectRestError(result, 413, "PAYLOAD_TOO_LARGE");
    });

    it("checks the plan's definition size before the definition's structure (422, not a walk of a huge invalid tree)", async () => {
      const free = await world.member({ plan: "free" });
      const environment = await world.environmentOf(free);
      const definition = { ...(definitionFor("huge", "1.0.0") as object), junk: "x".repeat(300 * 1024) };
      const result = await free.http.post(`/v1/envs/${environment.id}/tool-middlewares/validate`, {
        grantReconciliation: { creations: [], deletions: [] },
        publications: [{ name: "huge", definition }],
      });
      expect(result.status).toBe(422);
      expect(result.body).toMatchObject({ code: "LIMIT_EXCEEDED", error: expect.stringMatching(/publications\[0\]\.definition is \d+ bytes/) });
    });
  });

  describe("list arguments", () => {
    const { maxListArgumentItems } = GRAPHQL_LIMITS;
    /** Well-formed global ids of accounts that do not exist. */
    const ids = (count: number) =>
      Array.from({ length: count }, (_, index) => Buffer.from(`Account:00000000-0000-4000-8000-${String(index).padStart(12, "0")}`).toString("base64"));

    it(`accepts nodes(ids:) with ${maxListArgumentItems} ids`, async () => {
      const result = await world.admin.graphql("query ($ids: [ID!]!) { nodes(ids: $ids) { __typename } }", { ids: ids(maxListArgumentItems) });
      expect(result.status).toBe(200);
      expect(result.body.data).toEqual({ nodes: Array(maxListArgumentItems).fill(null) });
    });

    it(`rejects ${maxListArgumentItems + 1} ids passed as a variable with 400 REQUEST_INVALID naming the limit`, async () => {
      const result = await world.admin.graphql("query ($ids: [ID!]!) { nodes(ids: $ids) { __typename } }", { ids: ids(maxListArgumentItems + 1) });
      expect(result.status).toBe(400);
      expect(result.body.errors?.[0]).toMatchObject({
        extensions: {
          code: "REQUEST_INVALID",
          problems: [`nodes(ids:) has ${maxListArgumentItems + 1} items; at most ${maxListArgumentItems} are allowed per request`],
        },
      });
    });

    it("rejects 49,000 ids (the request that held the event loop for 27 s) at once", async () => {
      const result = await world.admin.graphql("query ($ids: [ID!]!) { nodes(ids: $ids) { __typename } }", { ids: ids(49_000) });
      expect(result.status).toBe(400);
      expect(result.body.errors?.[0]?.extensions?.code).toBe("REQUEST_INVALID");
    });

    it(`rejects a literal list of ${maxListArgumentItems + 1} ids while validating the document`, async () => {
      const literal = ids(maxListArgumentItems + 1)
        .map((id) => JSON.stringify(id))
        .join(",");
      const result = await world.anonymous.graphql(`{ nodes(ids: [${literal}]) { __typename } }`);
      expect(result.status).toBe(400);
      expect(result.body.data).toBeUndefined();
      expect(result.body.errors?.[0]?.extensions).toMatchObject({ code: "REQUEST_INVALID", problems: [expect.stringMatching(/^nodes\(ids:\) has 101 items/)] });
    });

    it("weighs an unpaged list as 500 items in the execution cost: activeGrants under 100 environments exceeds the budget", async () => {
      const query = "query ($n: Int) { environments(first: $n) { nodes { activeGrants { id release { id name version owner { id } } } } } }";
      const result = await world.admin.graphql(query, { n: 100 });
      expect(result.status).toBe(400);
      expect(result.body.errors?.[0]?.message).toMatch(/complexity/);
    });
  });

  // PostgreSQL text cannot hold U+0000: a query that carries one fails instead of matching nothing.
  describe("text holding U+0000 (NUL)", () => {
    const NUL = "\u0000";

    it("finds no release at a coordinate holding NUL (404), on REST and GraphQL, instead of failing", async () => {
      const create = await raw(
        service.url,
        "POST",
        `/v1/envs/${world.environment.id}/tool-middlewares`,
        admin,
        JSON.stringify({ release: { type: "ByCoordinates", account: `a${NUL}b@example.test`, name: "x", version: "1" } }),
      );
      expectRestError(create, 404, "REFERENCED_TOOL_RELEASE_NOT_FOUND");
      const creations = [{ release: { type: "ByCoordinates", account: world.owner.account.email, name: `x${NUL}`, version: `1${NUL}` } }];
      const validate = await raw(
        service.url,
        "POST",
        `/v1/envs/${world.environment.id}/tool-middlewares/validate`,
        admin,
        JSON.stringify({ grantReconciliation: { creations } }),
      );
      expectRestError(validate, 404, "REFERENCED_TOOL_RELEASE_NOT_FOUND");
    });

    it("lists no release named with NUL, on REST and GraphQL", async () => {
      const rest = await raw(service.url, "GET", `/v1/accounts/${world.owner.account.id}/tool-releases?name=a%00b`, admin);
      expect({ status: rest.status, body: JSON.parse(rest.text) }).toEqual({ status: 200, body: { values: [], nextCursor: null } });
      const query = `query ($id: UUID!, $name: String) { account(id: $id) { toolReleaseList(name: $name) { uuid } toolReleases(name: $name) { nodes { uuid } } } }`;
      const graphql = await world.admin.graphql(query, { id: world.owner.account.id, name: `a${NUL}b` });
      expect(graphql.body).toEqual({ data: { account: { toolReleaseList: [], toolReleases: { nodes: [] } } } });
    });

    it("refuses NUL in what becomes a column of its own (a definition's version, a source's componentName, names of accounts and environments) with 400 naming it", async () => {
      const publication = (version: string, componentName: string) => ({
        publications: [
          {
            name: "nul-probe",
            definition: definitionFor("nul-probe", version),
            source: { kind: "component", componentId: "00000000-0000-4000-8000-000000000000", componentRevision: 1, componentName },
          },
        ],
      });
      const version = await raw(
        service.url,
        "POST",
        `/v1/envs/${world.environment.id}/tool-middlewares/apply`,
        admin,
        JSON.stringify(publication(`1.0${NUL}`, "nul-probe")),
      );
      expectRestError(version, 400, "REQUEST_INVALID");
      expect(JSON.parse(version.text).errors).toEqual([expect.stringMatching(/^publications\[0\]\.definition\.version: must not contain U\+0000/)]);
      const component = await raw(
        service.url,
        "POST",
        `/v1/envs/${world.environment.id}/tool-middlewares/apply`,
        admin,
        JSON.stringify(publication("1.0.0", `nul${NUL}probe`)),
      );
      expectRestError(component, 400, "REQUEST_INVALID");
      expect(JSON.parse(component.text).errors).toEqual([expect.stringMatching(/^publications\[0\]\.source\.componentName: must not contain U\+0000/)]);
      const account = await world.admin.graphql(`mutation ($input: CreateAccountInput!) { createAccount(input: $input) { uuid } }`, {
        input: { name: `nul${NUL}`, email: "nul@example.test" },
      });
      expect(account.body.errors?.[0]?.extensions).toMatchObject({
        code: "REQUEST_INVALID",
        problems: [expect.stringMatching(/name: must not contain U\+0000/)],
      });
    });
  });

  describe("methods, paths and parameters", () => {
    it("answers TRACE with 405 METHOD_NOT_ALLOWED as JSON with Allow, in the surface's shape, without a stack trace", async () => {
      for (const [path, allow] of [
        ["/v1/tool-releases/x", "GET, HEAD, DELETE, OPTIONS"],
        ["/healthz", "GET, HEAD, OPTIONS"],
      ]) {
        const result = await raw(service.url, "TRACE", path!);
        expectRestError(result, 405, "METHOD_NOT_ALLOWED");
        expect(result.headers.allow).toBe(allow);
        expect(result.text).not.toMatch(/at \w+ \(/);
      }
      const graphql = await raw(service.url, "TRACE", "/graphql");
      expectGraphQLError(graphql, 405, "METHOD_NOT_ALLOWED");
      expect(graphql.headers.allow).toBe("GET, POST, OPTIONS");
    });

    it("answers PATCH, PUT and DELETE on /graphql with 405 and the allowed methods", async () => {
      for (const method of ["PATCH", "PUT", "DELETE"]) {
        const result = await raw(service.url, method, "/graphql", json, "{}");
        expectGraphQLError(result, 405, "METHOD_NOT_ALLOWED");
        expect(result.headers.allow).toBe("GET, POST, OPTIONS");
      }
    });

    it("answers PUT and PATCH on a REST path with 405 and the allowed methods", async () => {
      const result = await raw(service.url, "PATCH", `/v1/tool-releases/${world.environment.id}`, admin, "{}");
      expectRestError(result, 405, "METHOD_NOT_ALLOWED");
      expect(result.headers.allow).toBe("GET, HEAD, DELETE, OPTIONS");
    });

    it("answers malformed JSON in GET /graphql?variables= with 400 REQUEST_INVALID naming the parameter", async () => {
      const result = await raw(service.url, "GET", "/graphql?query=%7Bme%7Bid%7D%7D&variables=%7B%22a%22", {});
      expectGraphQLError(result, 400, "REQUEST_INVALID", /^query\.variables: malformed JSON/);
      const bare = await raw(service.url, "GET", "/graphql?variables=%7B%22a%22&extensions=%7B", {});
      const body = JSON.parse(bare.text);
      expect(bare.status).toBe(400);
      expect(body.errors[0].extensions.problems).toEqual([expect.stringMatching(/^query\.variables:/), expect.stringMatching(/^query\.extensions:/)]);
    });

    it("answers an unsupported content type with 415 UNSUPPORTED_MEDIA_TYPE as JSON", async () => {
      const result = await raw(service.url, "POST", "/graphql", { "content-type": "application/xml" }, "<query/>");
      expectGraphQLError(result, 415, "UNSUPPORTED_MEDIA_TYPE", /application\/xml/);
    });

    it("answers a REST body whose content type is not JSON with 415 UNSUPPORTED_MEDIA_TYPE, before reading it as JSON", async () => {
      const path = `/v1/envs/${world.environment.id}/tool-middlewares/validate`;
      const auth = { authorization: admin.authorization! };
      for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "application/xml", "application/jsonp", undefined]) {
        const headers = contentType === undefined ? auth : { ...auth, "content-type": contentType };
        const result = await raw(service.url, "POST", path, headers, '{"publications": []}');
        expectRestError(result, 415, "UNSUPPORTED_MEDIA_TYPE");
        expect(JSON.parse(result.text).error, String(contentType)).toMatch(/application\/json/);
      }
      const deletion = await raw(
        service.url,
        "DELETE",
        "/v1/environment-tool-middleware-grants/00000000-0000-4000-8000-000000000000",
        { ...auth, "content-type": "text/plain" },
        '{"automatic": true}',
      );
      expectRestError(deletion, 415, "UNSUPPORTED_MEDIA_TYPE");
    });

    it("reads REST bodies of any JSON media type, and ignores the content type of a request without a body", async () => {
      const path = `/v1/envs/${world.environment.id}/tool-middlewares/validate`;
      for (const contentType of ["application/json", "application/json; charset=utf-8", "Application/JSON", "application/vnd.toolgate+json"]) {
        const result = await raw(service.url, "POST", path, { authorization: admin.authorization!, "content-type": contentType }, '{"publications": []}');
        expect({ contentType, status: result.status }).toEqual({ contentType, status: 200 });
      }
      const release = await world.publish(world.owner, "media-type-free", "1.0.0");
      const restore = await raw(
        service.url,
        "POST",
        `/v1/tool-releases/${release.id}/restore`,
        { authorization: admin.authorization!, "content-type": "text/plain" },
        "",
      );
      expectRestError(restore, 409, "TOOL_RELEASE_LIFECYCLE_CONFLICT");
    });

    it("answers JSON whatever the Accept header asks for", async () => {
      const result = await raw(service.url, "POST", "/graphql", { ...admin, accept: "application/xml" }, JSON.stringify({ query: "{ me { id } }" }));
      expect(result.status).toBe(200);
      expect(JSON.parse(result.text).data.me.id).toEqual(expect.any(String));
    });

    it("answers bodies of the wrong JSON type with 400 REQUEST_INVALID", async () => {
      for (const body of ["null", "42", '"query"', '{"query": 1}', '{"query": "{ me { id } }", "variables": [1]}', "{bad"]) {
        expectGraphQLError(await raw(service.url, "POST", "/graphql", json, body), 400, "REQUEST_INVALID");
      }
      for (const body of ["null", "42", "[]", '{"release": "x"}', "{bad"]) {
        expectRestError(await raw(service.url, "POST", `/v1/envs/${world.environment.id}/tool-middlewares`, admin, body), 400, "REQUEST_INVALID");
      }
    });

    it("answers deeply nested JSON with a 4xx, on both surfaces", async () => {
      const nested = "[".repeat(100_000) + "]".repeat(100_000);
      const rest = await raw(
        service.url,
        "POST",
        `/v1/envs/${world.environment.id}/tool-middlewares/validate`,
        admin,
        `{"publications": [{"name": "a", "definition": ${nested}}]}`,
      );
      expectRestError(rest, 400, "REQUEST_INVALID");
      expect(JSON.parse(rest.text).errors).toEqual(["body: JSON nested deeper than 128 levels"]);
      const validate = `query ($v: JSON!) { validateToolMiddlewares(environmentId: "${world.environment.id}", input: {publications: [{name: "a", definition: $v}]}) { publicationPlan { action } } }`;
      const graphql = await raw(service.url, "POST", "/graphql", admin, JSON.stringify({ query: validate }).slice(0, -1) + `, "variables": {"v": ${nested}}}`);
      expectGraphQLError(graphql, 400, "REQUEST_INVALID", /nested deeper than 128 levels/);
    });

    it("answers odd paths and percent-encodings with 4xx JSON", async () => {
      for (const path of [
        "/%",
        "/%zz",
        "/v1/tool-releases/%E0%A4%A",
        "/v1/envs/%00/tool-middlewares",
        "/v1/../graphql",
        "/v1/tool-releases/" + "a".repeat(4000),
      ]) {
        const result = await raw(service.url, "GET", path, admin);
        expect(result.status, path).toBeGreaterThanOrEqual(400);
        expect(result.status, path).toBeLessThan(500);
        expect(() => JSON.parse(result.text), path).not.toThrow();
      }
    });

    it("answers oversized headers with 431 REQUEST_HEADERS_TOO_LARGE as JSON", async () => {
      const result = await raw(service.url, "GET", "/healthz", { "x-padding": "a".repeat(20_000) });
      expectRestError(result, 431, "REQUEST_HEADERS_TOO_LARGE");
    });

    it("answers HEAD /healthz", async () => {
      expect((await raw(service.url, "HEAD", "/healthz")).status).toBe(200);
    });
  });
});
