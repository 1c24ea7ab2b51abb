// /openapi.json is a valid OpenAPI 3.1 document generated from the route table, matching the router
// both ways; /docs serves the reference page with its bundle from node_modules; / and /v1 link every
// surface. (Every answer of the /v1 suites is checked against the document in test/helpers/http.ts.)
import { execFile } from "node:child_process";
import { brotliDecompressSync } from "node:zlib";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSchema } from "../../src/graphql/schema.js";
import { LINKS, SCALAR_BUNDLE_PATH } from "../../src/http/pages/api-reference.js";
import { createApp } from "../../src/http/app.js";
import { createOpenApiDocument, openApiPath } from "../../src/http/rest/openapi.js";
import { REST_ROUTES } from "../../src/http/rest/routes.js";
import { withoutEvalProbe } from "../../src/http/pages/scalar-bundle.js";
import { jsonFormat } from "../fixtures/definitions/index.js";
import { checkAgainstOpenApi } from "../helpers/openapi-responses.js";
import { rawRequest } from "../helpers/raw-http.js";
import { startTestService, type TestService } from "../helpers/service.js";

type Media = { schema: object; example?: unknown };
type OperationWithBodies = { requestBody?: { content?: Record<string, Media> }; responses: Record<string, { content?: Record<string, Media> }> };

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

const METHODS = ["get", "head", "post", "put", "patch", "delete", "options", "trace"];

const REDOCLY = path.resolve("node_modules/.bin/redocly");

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** `redocly lint` with its recommended rules only, in a directory of its own (no project config), offline. */
async function redoclyLint(document: object): Promise<LintReport> {
  const dir = await mkdtemp(path.join(tmpdir(), "toolgate-redocly-"));
  try {
    await writeFile(path.join(dir, "openapi.json"), JSON.stringify(document, null, 2));
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
    const args = ["lint", "openapi.json", "--extends", "recommended", "--format", "json"];
    // It exits 1 when it reports an error; the report is on stdout either way.
    const { stdout } = await promisify(execFile)(REDOCLY, args, { cwd: dir, env }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    return JSON.parse(stdout) as LintReport;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("the OpenAPI document and the pages about the API", () => {
  let service: TestService;
  let document: { openapi: string; paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>> };

  beforeAll(async () => {
    service = await startTestService("sqlite");
    const response = await fetch(`${service.url}/openapi.json`);
    expect(response.status).toBe(200);
    document = await response.json();
  });
  afterAll(() => service?.stopAndDrop());

  it("is served without a token, as generated from the route table", () => {
    expect(document).toEqual(createOpenApiDocument(REST_ROUTES));
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it("is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)", async () => {
    const validator = new Validator();
    const result = await validator.validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect({ valid: result.valid, version: validator.version }).toEqual({ valid: true, version: "3.1" });
  });

  it("passes Redocly's recommended lint rules with no error and no warning", { timeout: 60_000 }, async () => {
    const report = await redoclyLint(document);
    const problems = report.problems.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it("names its server by a relative URL, so that it holds wherever the server runs", () => {
    expect((document as unknown as { servers: unknown }).servers).toEqual([{ url: "/", description: expect.any(String) }]);
  });

  it("states what the routes refuse: page sizes 1 to 500, blank coordinates, revisions over GraphQL's Int, urn: UUIDs, publications without a source on apply", () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: "https://toolgate.invalid/openapi.json" });
    const accepts = (pointer: string, value: unknown) => ajv.validate({ $ref: `https://toolgate.invalid/openapi.json#${pointer}` }, value);
    const parameter = (path: string, name: string) => {
      const operation = document.paths[path]!.get as unknown as { parameters: { name: string; schema: object }[] };
      return `/paths/${path.replace(/\//g, "~1")}/get/parameters/${operation.parameters.findIndex((candidate) => candidate.name === name)}/schema`;
    };
    for (const path of ["/v1/envs/{environmentId}/tool-middlewares", "/v1/envs/{environmentId}/events", "/v1/accounts/{accountId}/events"]) {
      expect(
        [0, 1, 500, 501].map((limit) => accepts(parameter(path, "limit"), limit)),
        path,
      ).toEqual([false, true, true, false]);
    }
    const releaseId = parameter("/v1/tool-releases/{releaseId}", "releaseId");
    expect([accepts(releaseId, "01a201cd-ac31-728b-b411-4c2a3ab92a61"), accepts(releaseId, "urn:uuid:01a201cd-ac31-728b-b411-4c2a3ab92a61")]).toEqual([
      true,
      false,
    ]);
    const byCoordinates = (account: string) => ({ type: "ByCoordinates", account, name: "json-format", version: "1.4.2" });
    expect(["", " ", "\u00a0\t", "a@b"].map((account) => accepts("/components/schemas/ReleaseSelector", byCoordinates(account)))).toEqual([
      false,
      false,
      false,
      true,
    ]);
    const publication = (source?: object) => ({ publications: [{ name: "json-format", definition: jsonFormat(), ...(source ? { source } : {}) }] });
    const source = (componentRevision: number, componentName = "json") => ({
      kind: "component",
      componentId: "01a201cd-ac31-728b-b411-4c2a3ab92a61",
      componentRevision,
      componentName,
    });
    expect([2 ** 31 - 1, 2 ** 31].map((revision) => accepts("/components/schemas/ToolMiddlewareChanges", publication(source(revision))))).toEqual([
      true,
      false,
    ]);
    expect(["json", " ", "a\u0000b"].map((name) => accepts("/components/schemas/ToolMiddlewareChanges", publication(source(1, name))))).toEqual([
      true,
      false,
      false,
    ]);
    expect([
      accepts("/components/schemas/ToolMiddlewareChanges", publication()),
      accepts("/components/schemas/ToolMiddlewareApplication", publication()),
    ]).toEqual([true, false]);
  });

  it("lists every route of the router under /v1, and the router serves every operation it lists", () => {
    const app = createApp({ db: service.db, schema: buildSchema(), routes: REST_ROUTES, logger: service.logger, introspection: false, isReady: () => true });
    const served = app
      .routeTable()
      .filter((route) => route.method !== "ALL")
      .map((route) => `${route.method} ${openApiPath(route.path)}`);
    const documented = Object.entries(document.paths).flatMap(([pathTemplate, item]) =>
      Object.keys(item)
        .filter((key) => METHODS.includes(key))
        .map((method) => `${method.toUpperCase()} ${pathTemplate}`),
    );
    expect(served.filter((route) => / \/v1(\/|$)/.test(route)).sort()).toEqual(documented.filter((route) => / \/v1(\/|$)/.test(route)).sort());
    expect(documented.filter((route) => !served.includes(route))).toEqual([]);
    // Each route, a HEAD beside each GET, and the index's GET and HEAD.
    const gets = REST_ROUTES.filter((route) => route.method === "GET").length;
    expect(documented.filter((route) => / \/v1(\/|$)/.test(route))).toHaveLength(REST_ROUTES.length + gets + 2);
  });

  it("is what the test client holds every /v1 answer to: unlisted statuses and mismatching bodies fail", () => {
    const path = "/v1/tool-releases/01a201cd-ac31-728b-b411-4c2a3ab92a61";
    const json = (status: number, body: unknown) => ({ status, contentType: "application/json", text: JSON.stringify(body) });
    expect(() => checkAgainstOpenApi("GET", path, json(404, { code: "TOOL_RELEASE_NOT_FOUND", error: "gone" }))).not.toThrow();
    expect(() => checkAgainstOpenApi("GET", path, json(404, { code: "TOOL_RELEASE_NOT_FOUND" }))).toThrow(/does not match the document/);
    expect(() => checkAgainstOpenApi("GET", path, json(404, { code: "LIMIT_EXCEEDED", error: "wrong code for 404" }))).toThrow(/does not match/);
    expect(() => checkAgainstOpenApi("GET", path, json(200, { id: "not a release" }))).toThrow(/does not match/);
    expect(() => checkAgainstOpenApi("GET", path, json(422, { code: "LIMIT_EXCEEDED", error: "x" }))).toThrow(/does not list/);
    expect(() => checkAgainstOpenApi("POST", `${path}/restore`, json(204, {}))).toThrow(/does not list/);
    // Not an operation of the document: the method is refused (405) before any route runs.
    expect(() => checkAgainstOpenApi("PUT", path, json(405, { code: "METHOD_NOT_ALLOWED", error: "x" }))).not.toThrow();
  });

  it("has examples that match their schemas", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: "https://toolgate.invalid/openapi.json" });
    const mismatches: string[] = [];
    let examples = 0;
    for (const [pathTemplate, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item as Record<string, OperationWithBodies>)) {
        const media = [
          ["requestBody", operation.requestBody?.content?.["application/json"]],
          ...Object.entries(operation.responses).map(([status, response]) => [`responses/${status}`, response.content?.["application/json"]] as const),
        ] as const;
        for (const [where, content] of media) {
          if (content?.example === undefined) continue;
          examples += 1;
          const pointer = `/paths/${pathTemplate.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}/${where}/content/application~1json/schema`;
          const validate = ajv.compile({ $ref: `https://toolgate.invalid/openapi.json#${pointer}` });
          if (!validate(content.example)) mismatches.push(`${method} ${pathTemplate} ${where}: ${ajv.errorsText(validate.errors)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(examples).toBeGreaterThan(50);
  });

  it("asks for a bearer token on every /v1 operation but the index, and lists each one's refusals", () => {
    for (const [pathTemplate, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!METHODS.includes(method) || !pathTemplate.startsWith("/v1/")) continue;
        expect({ pathTemplate, method, security: operation.security }).toEqual({ pathTemplate, method, security: undefined }); // the document's default: bearer
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["400", "401", "403", "404", "429", "500", "503"]));
      }
    }
    expect((document as unknown as { security: unknown }).security).toEqual([{ bearer: [] }]);
  });

  it("serves the reference page with Scalar's bundle from node_modules, no CDN", async () => {
    const page = await rawRequest(service.url, "GET", "/docs");
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["cache-control"]).toBe("no-cache");
    const html = page.body.toString();
    expect(html).toContain(`data-url="${LINKS.openapi}"`);
    expect(html).toContain(`<script src="${SCALAR_BUNDLE_PATH}"></script>`);
    expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    expect(html).toContain('<link rel="icon" href="/favicon.ico">');
    // Offline: no request proxy, no telemetry, none of Scalar's hosted services.
    const configuration = JSON.parse(
      /data-configuration="([^"]*)"/
        .exec(html)![1]!
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, "<")
        .replace(/&amp;/g, "&"),
    ) as Record<string, unknown>;
    expect(configuration).toMatchObject({
      proxyUrl: "",
      telemetry: false,
      agent: { disabled: true },
      showDeveloperTools: "never",
      hideClientButton: true,
      withDefaultFonts: false,
    });

    const bundle = await rawRequest(service.url, "GET", SCALAR_BUNDLE_PATH, { "accept-encoding": "br" });
    expect(bundle.status).toBe(200);
    expect(bundle.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(bundle.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(bundle.headers["content-encoding"]).toBe("br");
    const installed = path.join(path.dirname(createRequire(import.meta.url).resolve("@scalar/api-reference")), "browser", "standalone.js");
    const served = brotliDecompressSync(bundle.body);
    expect(served.equals(Buffer.from(withoutEvalProbe(await readFile(installed, "utf8"))))).toBe(true);
    // The one difference: zod's eval probe, answered up front (src/http/pages/scalar-bundle.ts).
    expect(served.toString()).not.toContain("new Function(");
    const again = await rawRequest(service.url, "GET", SCALAR_BUNDLE_PATH, { "accept-encoding": "br", "if-none-match": String(bundle.headers.etag) });
    expect(again.status).toBe(304);
  });

  it("links every surface from / (HTML) and from /v1 and /v1/ (JSON), without a token", async () => {
    const landing = await rawRequest(service.url, "GET", "/");
    expect({ status: landing.status, type: landing.headers["content-type"] }).toEqual({ status: 200, type: "text/html; charset=utf-8" });
    for (const href of Object.values(LINKS)) expect(landing.body.toString()).toContain(`<a href="${href}">`);
    expect(Object.values(LINKS)).toEqual(["/graphql", "/docs", "/openapi.json", "/healthz", "/readyz", "/metrics"]);
    for (const index of ["/v1", "/v1/"]) {
      const response = await fetch(service.url + index);
      expect({ status: response.status, body: await response.json() }).toEqual({
        status: 200,
        body: { name: "toolgate", version: expect.any(String), links: LINKS },
      });
    }
  });
});
