// Requests an OpenAPI document says an operation accepts, as fast-check arbitraries: path and query
// parameters and the JSON body generated from their schemas (json-schema-arbitrary.ts), real values
// mixed in where the caller knows some, and checked against the same schemas with ajv before they
// are sent (a generator that strays from the document would prove nothing).
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc, { type Arbitrary } from "fast-check";
import { arbitraryFor, type JsonSchema } from "./json-schema-arbitrary.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

const DOCUMENT_ID = "https://toolgate.invalid/openapi.json";

const HTTP_METHODS = ["get", "head", "post", "put", "patch", "delete", "options", "trace"];

interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  schema: JsonSchema;
}

interface MediaType {
  schema: JsonSchema;
}

interface Operation {
  operationId: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

export interface DocumentedOperation {
  method: string;
  pathTemplate: string;
  operation: Operation;
  /** JSON pointer of the operation in the document. */
  pointer: string;
}

export interface Case {
  method: string;
  /** The path with its parameters filled in, and the query string. */
  target: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: unknown;
}

/** Real values for a location: `path.grantId`, `query.after`, `body.release.releaseId`, `body.publications[]`. */
export type Hints = (location: string) => Arbitrary<unknown> | undefined;

const escapePointer = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");

export function documentedOperations(document: OpenApiDocument): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([pathTemplate, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ method: method.toUpperCase(), pathTemplate, operation, pointer: `/paths/${escapePointer(pathTemplate)}/${method}` })),
  );
}

/** The parameters' and body's schemas and every response's, compiled once against the whole document. */
export function documentValidators(document: OpenApiDocument): (pointer: string) => ValidateFunction {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const compiled = new Map<string, ValidateFunction>();
  return (pointer) => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      compiled.set(pointer, validate);
    }
    return validate;
  };
}

function resolverOf(document: OpenApiDocument): (ref: string) => JsonSchema {
  return (ref) => {
    const name = /^#\/components\/schemas\/(.+)$/.exec(ref)?.[1];
    const schema = name === undefined ? undefined : document.components.schemas[name];
    if (schema === undefined) throw new Error(`cannot resolve ${ref}`);
    return schema;
  };
}

/** A query value as a URL carries it: numbers and booleans in their JSON spelling. */
const queryText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

export function caseArbitrary(document: OpenApiDocument, { method, pathTemplate, operation }: DocumentedOperation, hints: Hints): Arbitrary<Case> {
  const options = { resolve: resolverOf(document), hint: hints };
  const parameters = operation.parameters ?? [];
  const unsupported = parameters.filter((parameter) => parameter.in !== "path" && parameter.in !== "query");
  if (unsupported.length > 0)
    throw new Error(`${method} ${pathTemplate}: no generator for ${unsupported.map((p) => `${p.in} parameter ${p.name}`).join(", ")}`);
  const group = (place: "path" | "query") => {
    const inPlace = parameters.filter((parameter) => parameter.in === place);
    const model = Object.fromEntries(inPlace.map((parameter) => [parameter.name, arbitraryFor(parameter.schema, `${place}.${parameter.name}`, options)]));
    return fc.record(model, { requiredKeys: inPlace.filter((parameter) => parameter.required).map((parameter) => parameter.name) });
  };
  const content = operation.requestBody?.content;
  const mediaTypes = Object.keys(content ?? {});
  if (mediaTypes.some((type) => type !== "application/json")) throw new Error(`${method} ${pathTemplate}: no generator for ${mediaTypes.join(", ")}`);
  const json = content?.["application/json"];
  const bodyArbitrary: Arbitrary<unknown> = json
    ? operation.requestBody!.required
      ? arbitraryFor(json.schema, "body", options)
      : fc.option(arbitraryFor(json.schema, "body", options), { nil: undefined })
    : fc.constant(undefined);
  return fc.record({ params: group("path"), query: group("query"), body: bodyArbitrary }).map(({ params, query, body }) => {
    const path = pathTemplate.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(queryText(params[name])));
    const search = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, queryText(value)]));
    return { method, target: search.size > 0 ? `${path}?${search}` : path, params, query, ...(body === undefined ? {} : { body }) };
  });
}

/** Where a generated case breaks its operation's schemas (an empty list: it is a request the document allows). */
export function caseProblems(validator: (pointer: string) => ValidateFunction, { pointer, operation }: DocumentedOperation, generated: Case): string[] {
  const problems: string[] = [];
  (operation.parameters ?? []).forEach((parameter, index) => {
    const value = (parameter.in === "path" ? generated.params : generated.query)[parameter.name];
    if (value === undefined) return;
    const validate = validator(`${pointer}/parameters/${index}/schema`);
    if (!validate(value)) problems.push(`${parameter.in}.${parameter.name}: ${JSON.stringify(validate.errors)}`);
  });
  if (generated.body !== undefined) {
    const validate = validator(`${pointer}/requestBody/content/application~1json/schema`);
    if (!validate(generated.body)) problems.push(`body: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  }
  return problems;
}
