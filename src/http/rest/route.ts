// A REST route is data: method, path, the fixed GraphQL document it runs, how request parts become
// variables, and how the GraphQL result becomes the spec's JSON and status. The document is typed
// (graphql.ts), so `variables` and `respond` are checked against the schema at compile time.
import type { DocumentDecoration } from "gql.tada";
import type { DocumentNode } from "graphql";
import type { z } from "zod";
import type { JsonValue, ResultOf, VariablesOf } from "./graphql.js";

type HttpMethod = "GET" | "POST" | "DELETE";

/** The `:name` parameters of an itty-router path: "/v1/grants/:grantId/restore" → "grantId". */
type PathParams<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

export interface RestInput<Path extends string = string> {
  /** Path parameters by name, e.g. { environmentId }. */
  params: string extends Path ? Record<string, string> : Record<PathParams<Path>, string>;
  query: URLSearchParams;
  /** The parsed JSON body; undefined when the request has none. */
  body: unknown;
}

/** What a route declares for its OpenAPI operation (openapi.ts); the schemas are registered in views.ts. */
export interface RestContract {
  /** The reference page's group. */
  tag: string;
  summary: string;
  description?: string;
  /** The JSON body the route reads; `required: false` when it may be absent. */
  body?: { schema: z.ZodType; required: boolean; example?: unknown };
  /** Query parameters, each with the schema of its value (an integer's is its decimal digits in the URL). */
  query?: Record<string, { schema: z.ZodType; description: string }>;
  /** The success status and its body's schema (none for 204). */
  success: { status: number; schema?: z.ZodType };
  /** Refusals beyond those every /v1 operation can answer (openapi.ts), e.g. 422 for plan limits. */
  refusals?: readonly number[];
}

/**
 * The document's variables as a route passes them. `$body` carries the request body as sent
 * (after enum words are renamed), so that GraphQL's coercion, not the route, reports what is wrong with it.
 */
type RestVariables<Variables> = { [Name in keyof Variables]: Name extends "body" ? unknown : Variables[Name] };

/**
 * The paths of a result type's fields that gql.tada could not find in the schema: it types those
 * `unknown` rather than failing (its editor plugin reports them; tsc does not), so routes check for them.
 * The JSON scalar is typed JsonValue, not unknown, to keep this exact.
 */
type UnknownFields<Result, Path extends string = ""> = unknown extends Result
  ? Path
  : [Result] extends [JsonValue]
    ? [JsonValue] extends [Result]
      ? never // the JSON scalar: not walked into, it is recursive
      : FieldsOf<Result, Path>
    : FieldsOf<Result, Path>;

/** UnknownFields of each member of a union, of a list's items, of an object's fields. */
type FieldsOf<Result, Path extends string> = Result extends readonly (infer Item)[]
  ? UnknownFields<Item, Path>
  : Result extends object
    ? { [Field in keyof Result & string]-?: UnknownFields<Result[Field], `${Path}.${Field}`> }[keyof Result & string]
    : never;

/** Makes a document that selects a field the schema lacks unassignable, naming the fields in the error. */
export type SchemaFieldsOnly<Document> = [UnknownFields<ResultOf<Document>>] extends [never]
  ? unknown
  : { "fields not in schema.graphql": UnknownFields<ResultOf<Document>> };

/** A document as the route table sees it, whatever its result and variables. */
type AnyDocument = DocumentNode & DocumentDecoration<Record<string, unknown>, Record<string, unknown>>;

export interface RestRoute<Document extends DocumentNode = AnyDocument, Path extends string = string> {
  /** Operation name as docs/api.md gives it, used in logs and docs. */
  name: string;
  method: HttpMethod;
  /** itty-router pattern, e.g. /v1/envs/:environmentId/tool-middlewares */
  path: Path;
  document: Document;
  contract: RestContract;
  variables(input: RestInput<Path>): RestVariables<VariablesOf<Document>>;
  /** The response body (undefined for 204), sent with `contract.success.status`. */
  respond(data: ResultOf<Document>): unknown;
  /**
   * Where the request carries the GraphQL arguments a resolver may refuse by name, e.g.
   * `{ after: "query.cursor" }`: a problem reported as `after: …` is answered as `query.cursor: …`.
   */
  argumentLocations?: Record<string, string>;
}

/** A route with its document's result and variables types checked; the table holds them untyped. */
export function restRoute<Document extends DocumentNode, const Path extends string>(
  route: RestRoute<Document, Path> & { document: SchemaFieldsOnly<Document> },
): RestRoute {
  return route as unknown as RestRoute;
}

/**
 * A nullable root field's value. Those fields are null only together with an error, which runRoute
 * answers before calling respond; null here would be a bug, answered as an internal error.
 */
export function present<T>(value: T | null, field: string): T {
  if (value === null) throw new Error(`${field} is null without an error`);
  return value;
}
