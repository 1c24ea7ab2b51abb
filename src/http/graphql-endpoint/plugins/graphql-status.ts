// The HTTP status of a /graphql answer, by the GraphQL-over-HTTP spec
// (https://graphql.github.io/graphql-over-http/draft/#sec-Status-Codes). Every error keeps its own
// status in the body (`extensions.http.status`, from error-codes.ts); the response's status is
// decided here, once, from the whole result and the media type it is served in.
import type { ExecutionResult } from "graphql";
import type { Plugin } from "graphql-yoga";
import { withStatus } from "../../byte-body.js";

export const GRAPHQL_RESPONSE_JSON = "application/graphql-response+json";

const METHOD_NOT_ALLOWED = 405;

type Result = Pick<ExecutionResult, "data" | "errors">;

/**
 * - No errors, or a non-null `data` (a partial result): 200. The spec's MUST for both media types:
 *   Apollo Client discards the data of any non-2xx answer.
 * - `application/json` and a well-formed request (a GraphQL document was read: the failure is a
 *   parse, validation, variable-coercion or field error): 200, the spec's SHOULD for that legacy
 *   media type, whose non-200 answers may come from a proxy and are not trusted by clients.
 * - Otherwise (`application/graphql-response+json`, or a request that is not well-formed GraphQL
 *   over HTTP such as a missing `query`): the highest status among the errors (400 for request
 *   errors, 401/403/404… when an error nulled the whole `data`).
 * - 405 for a mutation sent with GET, whatever the media type (the spec's MUST).
 *   The spec only RECOMMENDS 200 when `data` is null; toolgate answers the error's status there,
 *   as the spec allows ("SHOULD reply with 403, 401 or similar" when the client is not permitted).
 */
function graphqlResponseStatus(result: Result, mediaType: string, wellFormed: boolean): number {
  if (!result.errors?.length || (result.data !== null && result.data !== undefined)) return 200;
  const statuses = result.errors.map(statusOf);
  // A mutation sent with GET: the spec's MUST, whatever the media type.
  if (statuses.includes(METHOD_NOT_ALLOWED)) return METHOD_NOT_ALLOWED;
  if (mediaType === "application/json" && wellFormed) return 200;
  return Math.max(...statuses);
}

function statusOf(error: { extensions?: Record<string, unknown> | undefined }): number {
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  return typeof status === "number" ? status : 500;
}

/**
 * Sets each /graphql response's status with graphqlResponseStatus (Yoga would answer the highest
 * error status even beside data). The result is read when it is processed, the media type it was
 * served in from the response's content-type.
 */
export function useGraphQLOverHttpStatuses(): Plugin {
  /** Well-formed GraphQL-over-HTTP requests: their parameters have the spec's shapes and their document was read. */
  const wellFormed = new WeakSet<Request>();
  const resultOf = new WeakMap<Request, Result>();
  return {
    onParse({ context }) {
      const { request, params } = context as { request?: Request; params?: unknown };
      if (request && hasWellFormedParameters(params)) wellFormed.add(request);
    },
    onResultProcess({ request, result }) {
      if (!Array.isArray(result) && !(Symbol.asyncIterator in result)) resultOf.set(request, result);
    },
    onResponse({ request, response, setResponse }) {
      const result = resultOf.get(request);
      if (!result) return;
      const mediaType = response.headers.get("content-type")?.split(";")[0]?.trim() ?? "application/json";
      const status = graphqlResponseStatus(result, mediaType, wellFormed.has(request));
      if (status !== response.status) setResponse(withStatus(response, status));
    },
  };
}

/** The spec's parameter shapes: `query` a string, `operationName` a string, `variables` and `extensions` maps. */
function hasWellFormedParameters(params: unknown): boolean {
  if (typeof params !== "object" || params === null) return false;
  const { query, operationName, variables, extensions } = params as Record<string, unknown>;
  const isMap = (value: unknown) => value === undefined || value === null || (typeof value === "object" && !Array.isArray(value));
  return (
    typeof query === "string" &&
    (operationName === undefined || operationName === null || typeof operationName === "string") &&
    isMap(variables) &&
    isMap(extensions)
  );
}
