// The OpenAPI 3.1 document of the REST API, generated from the route table (each route's contract)
// and the zod schemas of views.ts, plus the error bodies every code of the status table can take.
// Served at /openapi.json; tests check every /v1 answer against it.
import { z } from "zod";
import { projectVersion } from "../../project-root.js";
import { ERROR_CODES, type ErrorCode } from "../../domain/errors.js";
import { HTTP_STATUS_BY_CODE } from "../../graphql/error-codes.js";
import type { RestRoute } from "./route.js";
import { named, restSchemas } from "./views.js";

type JsonObject = Record<string, unknown>;

const VERSION = projectVersion;

/**
 * Every /v1 operation can be refused with these: a bad path or query, no token, no permission, not
 * found, the rate limit, headers over node's limit, a bug, the database.
 */
const COMMON_REFUSALS = [400, 401, 403, 404, 429, 431, 500, 503];
/** node:http refuses oversized headers before any route runs, whatever the path (node-guards.ts). */
const HEADER_REFUSALS = [431];
/** Operations that read a body (every non-GET) also refuse one over the size limit, or not sent as JSON. */
const BODY_REFUSALS = [413, 415];

const REASONS: Record<number, string> = {
  304: "Not modified: the representation matches `If-None-Match`.",
  400: "Invalid request; `errors` lists every problem found.",
  401: "Missing, unknown, expired or revoked token.",
  403: "Authenticated, but not permitted.",
  404: "Not found, or not visible to the token.",
  409: "Conflict with the resource's state, or a concurrent update that outlasted the retries.",
  413: "Request body over the size limit.",
  415: "The body's `Content-Type` is not JSON (`application/json`, or `application/…+json`).",
  422: "A limit of the owner's plan would be exceeded.",
  429: "Rate limited; retry after `Retry-After` seconds.",
  431: "Request headers over node's limit (16 KiB).",
  500: "Internal error; the details are in the server log under the request id.",
  503: "The database is unavailable; retry after `Retry-After` seconds.",
};

/** Codes only /graphql answers (automatic persisted queries). */
const GRAPHQL_ONLY_CODES: readonly ErrorCode[] = ["PERSISTED_QUERY_NOT_FOUND", "PERSISTED_QUERY_MISMATCH"];

const codesOf = (status: number): [ErrorCode, ...ErrorCode[]] => {
  const codes = ERROR_CODES.filter((code) => HTTP_STATUS_BY_CODE[code] === status && !GRAPHQL_ONLY_CODES.includes(code));
  if (codes.length === 0) throw new Error(`no error code has status ${status}`);
  return codes as [ErrorCode, ...ErrorCode[]];
};

/** The error bodies (docs/api.md, Errors), one component per status with the codes it can carry. */
const errorSchemaId = (status: number) => `Error${status}`;
for (const status of [...COMMON_REFUSALS, ...HEADER_REFUSALS, ...BODY_REFUSALS, 409, 422]) {
  const code = z.enum(codesOf(status));
  const schema = status === 400 ? z.strictObject({ code, errors: z.array(z.string()).min(1) }) : z.strictObject({ code, error: z.string() });
  named(schema, errorSchemaId(status), REASONS[status] ?? `HTTP ${status}`);
}

const Health = named(z.strictObject({ status: z.string() }), "Health", "`ok`, `ready`, `shutting-down` or `database-unavailable`.");
const ApiIndex = named(
  z.strictObject({ name: z.string(), version: z.string(), links: z.record(z.string(), z.string()) }),
  "ApiIndex",
  "Where the API's surfaces and documentation are.",
);

const ref = (schema: z.ZodType): JsonObject => {
  const id = restSchemas.get(schema)?.id;
  if (id === undefined) throw new Error("a route's schema is not registered in views.ts (restSchemas)");
  return { $ref: `#/components/schemas/${id}` };
};

const json = (schema: JsonObject, example?: unknown): JsonObject => ({
  "application/json": example === undefined ? { schema } : { schema, example },
});

const header = (name: string): JsonObject => ({ $ref: `#/components/headers/${name}` });

function errorResponse(status: number): JsonObject {
  const [code] = codesOf(status);
  const example = status === 400 ? { code, errors: ['path.grantId: "42" is not a UUID'] } : { code, error: REASONS[status] ?? "refused" };
  // node:http answers 431 itself, before a request id is given.
  const headers: JsonObject = HEADER_REFUSALS.includes(status) ? {} : { "X-Request-Id": header("X-Request-Id") };
  if (status === 401) headers["WWW-Authenticate"] = header("WWW-Authenticate");
  if (status === 429 || status === 503) headers["Retry-After"] = header("Retry-After");
  return { description: REASONS[status] ?? `HTTP ${status}`, headers, content: json({ $ref: `#/components/schemas/${errorSchemaId(status)}` }, example) };
}

/** "/v1/grants/:grantId/restore" → "/v1/grants/{grantId}/restore" */
export const openApiPath = (routerPath: string) => routerPath.replace(/:([A-Za-z]+)/g, "{$1}");

/** "list active grants" → "listActiveGrants" */
const operationIdOf = (name: string) => name.replace(/[^A-Za-z0-9]+(.)/g, (_, next: string) => next.toUpperCase());

function operationOf(route: RestRoute, toSchema: (schema: z.ZodType) => JsonObject): { method: string; operation: JsonObject }[] {
  const { contract } = route;
  const pathParameters = [...route.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    description: "A UUID.",
    // The pattern too: JSON Schema's uuid format also admits a `urn:uuid:` prefix, which the routes refuse.
    schema: toSchema(z.guid()),
  }));
  const queryParameters = Object.entries(contract.query ?? {}).map(([name, { schema, description }]) => ({
    name,
    in: "query",
    required: false,
    description,
    schema: toSchema(schema),
  }));
  const success: JsonObject = {
    description: contract.success.schema ? "Success." : "Done; no body.",
    headers: { "X-Request-Id": header("X-Request-Id") },
  };
  if (contract.success.schema) {
    success.content = json(ref(contract.success.schema));
    if (route.method === "GET") (success.headers as JsonObject).ETag = header("ETag");
  }
  const refusals = [...COMMON_REFUSALS, ...(route.method === "GET" ? [] : BODY_REFUSALS), ...(contract.refusals ?? [])];
  const responses: JsonObject = { [contract.success.status]: success };
  if (route.method === "GET") responses[304] = { description: REASONS[304], headers: { ETag: header("ETag") } };
  for (const status of [...new Set(refusals)].sort()) responses[status] = errorResponse(status);
  const operation: JsonObject = {
    operationId: operationIdOf(route.name),
    tags: [contract.tag],
    summary: contract.summary,
    ...(contract.description ? { description: contract.description } : {}),
    parameters: [...pathParameters, ...queryParameters],
    ...(contract.body ? { requestBody: { required: contract.body.required, content: json(ref(contract.body.schema), contract.body.example) } } : {}),
    responses,
  };
  const operations = [{ method: route.method.toLowerCase(), operation }];
  if (route.method === "GET") {
    // The router answers HEAD with the GET's status and headers and no body.
    const bodiless = Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, withoutContent(response as JsonObject)]));
    operations.push({
      method: "head",
      operation: { ...operation, operationId: `${operation.operationId as string}Head`, summary: `${contract.summary} (headers only)`, responses: bodiless },
    });
  }
  return operations;
}

function withoutContent(response: JsonObject): JsonObject {
  const { content: _content, ...rest } = response;
  return rest;
}

/** The unauthenticated routes beside /v1's operations: the index, health, and this document. */
function serviceOperations(): Record<string, JsonObject> {
  const refusals = Object.fromEntries(HEADER_REFUSALS.map((status) => [status, errorResponse(status)]));
  /** GET, and HEAD beside it: the router answers both, HEAD with the GET's statuses and headers and no body. */
  const readable = (operationId: string, summary: string, responses: JsonObject, options: { revalidated?: boolean } = {}): JsonObject => {
    const all: JsonObject = { ...responses, ...refusals };
    if (options.revalidated) {
      // Pages the same for everyone carry an ETag (representation.ts), so If-None-Match gets 304.
      (all[200] as JsonObject).headers = { ETag: header("ETag") };
      all[304] = { description: REASONS[304], headers: { ETag: header("ETag") } };
    }
    const operation = (id: string, text: string, answers: JsonObject) => ({
      operationId: id,
      tags: ["Service"],
      summary: text,
      security: [],
      responses: answers,
    });
    const bodiless = Object.fromEntries(Object.entries(all).map(([status, response]) => [status, withoutContent(response as JsonObject)]));
    return { get: operation(operationId, summary, all), head: operation(`${operationId}Head`, `${summary} (headers only)`, bodiless) };
  };
  const health = (description: string) => ({ description, content: json(ref(Health)) });
  return {
    "/v1": readable(
      "apiIndex",
      "Links to the API's surfaces and documentation",
      { 200: { description: "The index.", content: json(ref(ApiIndex)) } },
      { revalidated: true },
    ),
    "/healthz": readable("healthz", "Liveness", { 200: health("The process is up.") }),
    "/readyz": readable("readyz", "Readiness: the database answers and the server is not shutting down", {
      200: health("Ready."),
      503: health("Shutting down, or the database does not answer."),
    }),
    "/openapi.json": readable(
      "openApiDocument",
      "This document",
      { 200: { description: "OpenAPI 3.1.", content: { "application/json": { schema: { type: "object" } } } } },
      { revalidated: true },
    ),
  };
}

export function createOpenApiDocument(routes: readonly RestRoute[]): JsonObject {
  const { schemas } = z.toJSONSchema(restSchemas, {
    target: "draft-2020-12",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonObject> };
  // Components are named by their key; a fragment-only $id is not allowed in JSON Schema 2020-12.
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  const toSchema = (schema: z.ZodType): JsonObject => {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12" }) as JsonObject;
    return rest;
  };
  const paths: Record<string, JsonObject> = serviceOperations();
  for (const route of routes) {
    const path = (paths[openApiPath(route.path)] ??= {});
    for (const { method, operation } of operationOf(route, toSchema)) path[method] = operation;
  }
  return {
    openapi: "3.1.1",
    info: {
      title: "toolgate REST API",
      version: VERSION,
      description:
        "Tool releases and environment grants (/v1). Each operation runs a fixed GraphQL document against the schema served at /graphql. Errors are `{code, error}`, or `{code, errors}` for 400.",
      license: { name: "MIT", identifier: "MIT" },
    },
    // Relative: the document is served by the API it describes, on whatever host and port that runs.
    servers: [{ url: "/", description: "The server this document was read from." }],
    tags: [
      { name: "Grants", description: "An environment's grants of exact releases: list, create, validate and apply changes, get, delete, restore." },
      { name: "Publications", description: "Validate and apply publications and grant changes." },
      { name: "Tool releases", description: "An account's releases: list, get, de-publish, restore." },
      { name: "Events", description: "Change events: who changed what, and when (docs/events.md)." },
      { name: "Service", description: "Unauthenticated: index, health, this document." },
    ],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API token (`tg_…`): `Authorization: Bearer <token>`." },
      },
      headers: {
        "X-Request-Id": { description: "The request's id, as sent (when valid) or generated; in the server log.", schema: { type: "string" } },
        ETag: { description: "Strong validator of the body; send it back in `If-None-Match`.", schema: { type: "string" } },
        "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "string", pattern: "^[0-9]+$" } },
        "WWW-Authenticate": { description: '`Bearer realm="toolgate"`.', schema: { type: "string" } },
      },
    },
  };
}
