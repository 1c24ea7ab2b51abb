// A tiny HTTP client for tests: JSON in, status + JSON out, with a bearer token.
import { expect } from "vitest";
import { GRAPHQL_RESPONSE_JSON } from "../../src/http/graphql-endpoint/plugins/graphql-status.js";
import { checkAgainstOpenApi, prepareOpenApiChecks } from "./openapi-responses.js";
export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface Client {
  token: string | undefined;
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult<T>>;
  get<T = any>(path: string): Promise<HttpResult<T>>;
  post<T = any>(path: string, body?: unknown): Promise<HttpResult<T>>;
  delete<T = any>(path: string, body?: unknown): Promise<HttpResult<T>>;
  graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<HttpResult<{ data?: T; errors?: any[] }>>;
}

export function client(baseUrl: string, token?: string): Client {
  prepareOpenApiChecks();
  const request = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult<T>> => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (token !== undefined) (init.headers as Record<string, string>).authorization = `Bearer ${token}`;
    if (body !== undefined) {
      (init.headers as Record<string, string>)["content-type"] = "application/json";
      init.body = typeof body === "string" ? body : JSON.stringify(body);
    }
    const response = await fetch(baseUrl + path, init);
    const text = await response.text();
    // Every answer of a documented /v1 operation must be one /openapi.json describes.
    checkAgainstOpenApi(method, path, { status: response.status, contentType: response.headers.get("content-type"), text });
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };
  return {
    token,
    request,
    get: (path) => request("GET", path),
    post: (path, body) => request("POST", path, body),
    delete: (path, body) => request("DELETE", path, body),
    // The media type GraphQL-over-HTTP clients ask for first (graphql-http, urql, Apollo Client):
    // statuses follow the errors when `data` is absent or null. `application/json`: graphql-status.ts.
    graphql: (query, variables) => request("POST", "/graphql", { query, variables }, { accept: GRAPHQL_RESPONSE_JSON }),
  };
}

/**
 * A /graphql answer failed with errors whose `extensions.http.status` is `status`. The response's
 * status is that one when no data came back, and 200 beside data (a partial result: GraphQL over
 * HTTP requires 2xx whenever `data` is non-null; src/http/graphql-endpoint/plugins/graphql-status.ts).
 */
export function expectGraphQLErrorStatus(result: HttpResult<{ data?: unknown; errors?: any[] }>, status: number): void {
  const partial = result.body.data !== null && result.body.data !== undefined;
  const statuses = [...new Set(result.body.errors?.map((error) => error.extensions?.http?.status))];
  expect({ response: result.status, errors: statuses }).toEqual({ response: partial ? 200 : status, errors: [status] });
}
