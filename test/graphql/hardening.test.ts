import { complexityFromQuery } from "@pothos/plugin-complexity";
import { getIntrospectionQuery, print } from "graphql";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRAPHQL_LIMITS } from "../../src/graphql/armor.js";
import { buildSchema } from "../../src/graphql/schema.js";
import { REST_ROUTES } from "../../src/http/rest/routes.js";
import { GRAPHIQL_DEFAULT_QUERY } from "../../src/http/pages/graphiql.js";
import { GRAPHQL_RESPONSE_JSON } from "../../src/http/graphql-endpoint/plugins/graphql-status.js";
import { createGraphQLHandler } from "../../src/http/graphql-endpoint/yoga.js";
import { client, type Client, type HttpResult } from "../helpers/http.js";
import { describeEachDatabase, startTestService, type TestService } from "../helpers/service.js";

const { maxDepth, maxAliases, maxTokens, maxDirectives, maxCost, maxExecutionCost } = GRAPHQL_LIMITS;

/**
 * `{ me { toolReleases(first: 1) { nodes { owner { … id } } } } }` with its leaf `depth` fields deep
 * (10 or 11), and `leaves` copies of it. Pages of one keep the execution cost small, so only the
 * validation-time limits decide (an unpaged list such as toolReleaseList weighs 500 per level there).
 */
function nestedQuery(depth: number, leaves = 1): string {
  const cycle = ["toolReleases(first: 1)", "nodes", "owner"];
  let selection = Array(leaves).fill("id").join(" ");
  for (let level = depth - 1; level >= 2; level--) selection = `${cycle[(level - 2) % 3]} { ${selection} }`;
  return `{ me { ${selection} } }`;
}

/** graphql-armor's cost of nestedQuery(maxDepth, leaves): 2 per object level, 1 per leaf, ×1.5 per level below the root. */
function costOfNestedQuery(leaves: number): number {
  const objectLevels = maxDepth - 1;
  let cost = leaves;
  for (let level = 0; level < objectLevels; level++) cost = 2 + 1.5 * cost;
  return cost;
}

const leavesWithinCost = (() => {
  let leaves = 1;
  while (costOfNestedQuery(leaves + 1) <= maxCost) leaves++;
  return leaves;
})();

/** Operations of 8 tokens each (`query Qn { me { id } }`), the first padded with `id`s to reach exactly `tokens`. */
function documentOfTokens(tokens: number): string {
  const operations = Math.floor(tokens / 8);
  const padding = " id".repeat(tokens - operations * 8);
  return Array.from({ length: operations }, (_, index) => `query Q${index} { me { id${index === 0 ? padding : ""} } }`).join("\n");
}

const aliasedIds = (count: number) => `{ me { ${Array.from({ length: count }, (_, index) => `a${index}: id`).join(" ")} } }`;
const includedIds = (count: number) => `{ me { ${Array(count).fill("id @include(if: true)").join(" ")} } }`;

function expectAccepted(result: HttpResult<{ data?: unknown; errors?: unknown[] }>): void {
  expect(result.body.errors).toBeUndefined();
  expect(result.status).toBe(200);
  expect(result.body.data).toBeDefined();
}

function expectRequestInvalid(result: HttpResult<{ data?: unknown; errors?: any[] }>, message: RegExp): void {
  expect(result.status).toBe(400);
  expect(result.body.data).toBeUndefined();
  expect(result.body.errors?.length).toBeGreaterThan(0);
  for (const error of result.body.errors ?? []) {
    expect(error).toMatchObject({
      message: expect.stringMatching(message),
      extensions: { code: "REQUEST_INVALID", problems: [expect.stringMatching(message)] },
    });
  }
}

/** A POST the way a plain HTML form sends it, or any other raw request. */
async function rawRequest(service: TestService, path: string, init: RequestInit): Promise<HttpResult> {
  const response = await fetch(service.url + path, { ...init, headers: { authorization: `Bearer ${service.adminToken}`, ...init.headers } });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text.startsWith("{") ? JSON.parse(text) : undefined, text };
}

const getQuery = (query: string) => `/graphql?query=${encodeURIComponent(query)}`;

describeEachDatabase("/graphql hardening", (provider) => {
  /** Development defaults: introspection on, demo mode (no demo accounts, so GraphiQL gets no token). */
  let open: TestService;
  /** Production defaults: introspection off. */
  let closed: TestService;
  let admin: Client;
  let adminOfClosed: Client;
  beforeAll(async () => {
    [open, closed] = await Promise.all([startTestService(provider, { introspection: true, demo: true }), startTestService(provider, { introspection: false })]);
    admin = client(open.url, open.adminToken);
    adminOfClosed = client(closed.url, closed.adminToken);
  });
  afterAll(() => Promise.all([open?.stopAndDrop(), closed?.stopAndDrop()]));

  describe("depth limit", () => {
    it(`accepts a query ${maxDepth} fields deep`, async () => {
      expectAccepted(await admin.graphql(nestedQuery(maxDepth)));
    });

    it(`rejects a query ${maxDepth + 1} fields deep with 400 REQUEST_INVALID naming the depth limit`, async () => {
      expectRequestInvalid(await admin.graphql(nestedQuery(maxDepth + 1)), new RegExp(`depth limit of ${maxDepth} exceeded, found ${maxDepth + 1}`));
    });

    it("does not count fragments as levels", async () => {
      const query = nestedQuery(maxDepth).replace("{ me {", "{ ...OnQuery } fragment OnQuery on Query { me { ... on Account {") + " }";
      expectAccepted(await admin.graphql(query));
    });
  });

  describe("alias limit", () => {
    it(`accepts ${maxAliases} aliases`, async () => {
      expectAccepted(await admin.graphql(aliasedIds(maxAliases)));
    });

    it(`rejects ${maxAliases + 1} aliases with 400 REQUEST_INVALID naming the alias limit`, async () => {
      expectRequestInvalid(await admin.graphql(aliasedIds(maxAliases + 1)), new RegExp(`Aliases limit of ${maxAliases} exceeded, found ${maxAliases + 1}`));
    });
  });

  describe("token limit", () => {
    it(`accepts a document of ${maxTokens} tokens`, async () => {
      const result = await admin.request("POST", "/graphql", { query: documentOfTokens(maxTokens), operationName: "Q0" });
      expectAccepted(result);
    });

    it(`rejects a document of ${maxTokens + 1} tokens with 400 REQUEST_INVALID naming the token limit`, async () => {
      const result = await admin.request(
        "POST",
        "/graphql",
        { query: documentOfTokens(maxTokens + 1), operationName: "Q0" },
        { accept: GRAPHQL_RESPONSE_JSON },
      );
      expectRequestInvalid(result, new RegExp(`Token limit of ${maxTokens} exceeded`));
    });
  });

  describe("directive limit", () => {
    it(`accepts ${maxDirectives} directives`, async () => {
      expectAccepted(await admin.graphql(includedIds(maxDirectives)));
    });

    it(`rejects ${maxDirectives + 1} directives with 400 REQUEST_INVALID naming the directive limit`, async () => {
      expectRequestInvalid(
        await admin.graphql(includedIds(maxDirectives + 1)),
        new RegExp(`Directives limit of ${maxDirectives} exceeded, found ${maxDirectives + 1}`),
      );
    });
  });

  describe("cost limit", () => {
    it(`accepts a query costing ${Math.floor(costOfNestedQuery(leavesWithinCost))} of ${maxCost}`, async () => {
      expectAccepted(await admin.graphql(nestedQuery(maxDepth, leavesWithinCost)));
    });

    it(`rejects a query costing ${Math.floor(costOfNestedQuery(leavesWithinCost + 1))} with 400 REQUEST_INVALID naming the cost limit`, async () => {
      expectRequestInvalid(await admin.graphql(nestedQuery(maxDepth, leavesWithinCost + 1)), new RegExp(`Cost limit of ${maxCost} exceeded`));
    });
  });

  describe("execution cost limit (page sizes as variables)", () => {
    const NESTED_PAGES = `query ($environments: Int, $grants: Int) {
      me { environments(first: $environments) { edges { node { grants(first: $grants) { edges { node { id release { name owner { name } } } } } } } } }
    }`;
    const costOf = (grants: number) =>
      complexityFromQuery(NESTED_PAGES, { schema: buildSchema(), variables: { environments: 50, grants }, ctx: {} }).complexity;
    const grantsWithinCost = (() => {
      let grants = 1;
      while (costOf(grants + 1) <= maxExecutionCost) grants++;
      return grants;
    })();

    it(`accepts 50 environment pages of ${grantsWithinCost} grants (cost ${costOf(grantsWithinCost)} of ${maxExecutionCost})`, async () => {
      expectAccepted(await admin.graphql(NESTED_PAGES, { environments: 50, grants: grantsWithinCost }));
    });

    it(`rejects 50 environment pages of ${grantsWithinCost + 1} grants (cost ${costOf(grantsWithinCost + 1)}) with 400 REQUEST_INVALID naming the complexity limit`, async () => {
      const result = await admin.graphql(NESTED_PAGES, { environments: 50, grants: grantsWithinCost + 1 });
      expect(result.status).toBe(400);
      expect(result.body.errors).toEqual([
        expect.objectContaining({ message: expect.stringMatching(/complexity/i), extensions: expect.objectContaining({ code: "REQUEST_INVALID" }) }),
      ]);
    });

    it("rejects pages of 500 nested in pages of 500, which the validation-time estimate cannot see", async () => {
      const result = await admin.graphql(NESTED_PAGES, { environments: 500, grants: 500 });
      expect(result.status).toBe(400);
      expect(result.body.errors?.[0].extensions.code).toBe("REQUEST_INVALID");
    });
  });

  describe("introspection", () => {
    it("answers GraphiQL's full introspection query when enabled", async () => {
      const result = await admin.graphql(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }));
      expectAccepted(result);
      expect(result.body.data).toMatchObject({ __schema: { queryType: { name: "Query" }, mutationType: { name: "Mutation" } } });
    });

    it("rejects __schema and __type with 400 REQUEST_INVALID when disabled", async () => {
      expectRequestInvalid(await adminOfClosed.graphql("{ __schema { queryType { name } } }"), /introspection has been disabled/);
      expectRequestInvalid(await adminOfClosed.graphql('{ __type(name: "Query") { name } }'), /introspection has been disabled/);
    });

    it("still answers __typename when disabled", async () => {
      const result = await adminOfClosed.graphql("{ __typename me { __typename } }");
      expectAccepted(result);
      expect(result.body.data).toEqual({ __typename: "Query", me: { __typename: "Account" } });
    });
  });

  describe("field suggestions", () => {
    it("suggests fields while introspection is enabled", async () => {
      expectRequestInvalid(await admin.graphql("{ mee { id } }"), /^Cannot query field "mee" on type "Query"\. Did you mean "me"\?$/);
    });

    it("hides suggestions when introspection is disabled", async () => {
      expectRequestInvalid(await adminOfClosed.graphql("{ mee { id } }"), /^Cannot query field "mee" on type "Query"\.$/);
    });
  });

  // No CSRF header check: toolgate authenticates with bearer headers only, which a cross-site page
  // cannot make a browser send. GET queries (urql's default) and their statuses: test/http/graphql-over-http.test.ts.
  describe("request forms", () => {
    it("answers a GET query without any CSRF header", async () => {
      const result = await rawRequest(open, getQuery("{ me { email } }"), { headers: { accept: "application/json" } });
      expectAccepted(result);
      expect(result.body.data).toEqual({ me: { email: "admin@toolgate.local" } });
    });

    it("runs a form-encoded POST (what a cross-site HTML form sends) only as the token it carries: none, so anonymous", async () => {
      const { me } = (await admin.graphql("{ me { uuid } }")).body.data;
      const result = await fetch(`${open.url}/graphql`, {
        method: "POST",
        headers: { accept: GRAPHQL_RESPONSE_JSON, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ query: `mutation { createEnvironment(input: { accountId: "${me.uuid}", name: "from-a-form" }) { uuid } }` }).toString(),
      });
      expect(result.status).toBe(401);
      expect((await result.json()).errors[0].extensions.code).toBe("AUTH_UNAUTHORIZED");
    });

    it("refuses a text/plain POST with 415 UNSUPPORTED_MEDIA_TYPE", async () => {
      const result = await rawRequest(open, "/graphql", {
        method: "POST",
        headers: { accept: "application/json", "content-type": "text/plain" },
        body: JSON.stringify({ query: "{ me { id } }" }),
      });
      expect(result.status).toBe(415);
      expect(result.body.errors[0].extensions.code).toBe("UNSUPPORTED_MEDIA_TYPE");
    });

    it("refuses a mutation sent with GET with 405 METHOD_NOT_ALLOWED", async () => {
      const result = await rawRequest(open, getQuery("mutation { __typename }"), { headers: { accept: "application/json" } });
      expect(result.status).toBe(405);
      expect(result.headers.get("allow")).toBe("POST");
      expect(result.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/mutation operation from a POST request/),
        extensions: { code: "METHOD_NOT_ALLOWED" },
      });
    });
  });

  describe("batching", () => {
    it("rejects an array of operations with 400 REQUEST_INVALID", async () => {
      const result = await admin.request("POST", "/graphql", [{ query: "{ me { id } }" }, { query: "{ me { name } }" }], { accept: GRAPHQL_RESPONSE_JSON });
      expectRequestInvalid(result, /Batching is not supported/);
    });
  });

  describe("GraphiQL", () => {
    it("serves the default document; in demo mode without demo accounts it pre-fills no token, never the admin's", async () => {
      const result = await client(open.url).request("GET", "/graphql", undefined, { accept: "text/html" });
      expect(result.status).toBe(200);
      expect(result.text).toContain("EnvironmentWithGrants");
      // The demo owner's token pre-filled, and the other cases: test/reliability/graphiql-token.test.ts.
      expect(result.text.includes(open.adminToken), "the admin token is in the page").toBe(false);
    });

    it("pre-fills no token outside demo mode", async () => {
      const result = await client(closed.url).request("GET", "/graphql", undefined, { accept: "text/html" });
      expect(result.status).toBe(200);
      expect(result.text).not.toContain(closed.adminToken);
    });

    it("runs an operation of the default document: the whole document is valid and within every limit", async () => {
      const result = await admin.request("POST", "/graphql", { query: GRAPHIQL_DEFAULT_QUERY, operationName: "Me" }, { accept: "application/json" });
      expectAccepted(result);
      expect(result.body.data).toMatchObject({ me: { email: "admin@toolgate.local", toolReleases: { nodes: [] } } });
    });
  });
});

describe("REST route documents", () => {
  // The same parse and validate /graphql runs, armor limits included; REST executes without Yoga.
  const yoga = createGraphQLHandler({ schema: buildSchema(), logger: pino({ level: "silent" }), introspection: false });
  const { parse, validate, schema } = yoga.getEnveloped({});

  it.each(REST_ROUTES.map((route) => [`${route.method} ${route.path} (${route.name})`, route] as const))("%s stays within every /graphql limit", (_, route) => {
    // Printed back to text so the armor's parse-time limits (tokens, depth) see the document too.
    expect(validate(schema, parse(print(route.document)))).toEqual([]);
  });
});
