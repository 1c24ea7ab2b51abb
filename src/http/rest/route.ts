// A REST route is data: method, path, the fixed GraphQL document it runs, how request parts become
// variables, and how the GraphQL result becomes the spec's JSON and status.

export type HttpMethod = "GET" | "POST" | "DELETE";

export interface RestInput {
  /** Path parameters by name, e.g. { environmentId }. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body; undefined when the request has none. */
  body: unknown;
}

export interface RestResult {
  status: number;
  /** Omitted for 204. */
  body?: unknown;
}

export interface RestRoute {
  /** Operation name in service.md terms, used in logs and docs. */
  name: string;
  method: HttpMethod;
  /** itty-router pattern, e.g. /v1/envs/:environmentId/tool-middlewares */
  path: string;
  document: string;
  variables(input: RestInput): Record<string, unknown>;
  respond(data: Record<string, unknown>): RestResult;
}

/** GraphQL enum names back to the spec's lowercase words: DE_PUBLISHED → de-published. */
export function restEnumValue(value: string): string {
  return value.toLowerCase().replace(/_/g, "-");
}
