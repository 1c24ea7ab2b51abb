// fast-check arbitraries of the values a JSON Schema (2020-12, the part of it the OpenAPI document
// uses) accepts: what a schema-driven API tester such as Schemathesis sends. A keyword it does not
// know makes it throw, since ignoring one would generate values the schema refuses (or miss values
// it accepts). Hints mix real values (ids of a seeded registry, valid definitions) in at chosen
// locations, which random values would rarely hit.
import fc, { type Arbitrary } from "fast-check";

export type JsonSchema = boolean | { [keyword: string]: unknown };

export interface SchemaArbitraryOptions {
  /** The schema a `$ref` names ("#/components/schemas/Grant"). */
  resolve(ref: string): JsonSchema;
  /** Real values for a location (`body.release.releaseId`, `body.publications[]`), mixed in with generated ones. */
  hint?(location: string): Arbitrary<unknown> | undefined;
}

/** Keywords that describe and constrain nothing. */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "example", "deprecated", "readOnly", "writeOnly", "$comment"]);
const GENERATED = new Set([
  "$ref",
  "const",
  "enum",
  "oneOf",
  "anyOf",
  "type",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "properties",
  "required",
  "additionalProperties",
]);

/** Arrays nested deeper hold fewer items: a middleware definition nests arrays six deep. */
const maxItemsAt = (depth: number) => (depth < 2 ? 3 : depth < 6 ? 2 : 1);

const anyJson = fc.jsonValue({ maxDepth: 2 });

export function arbitraryFor(schema: JsonSchema, location: string, options: SchemaArbitraryOptions, depth = 0): Arbitrary<unknown> {
  const generated = generatedFor(schema, location, options, depth);
  const hinted = options.hint?.(location);
  // Mostly real values: a random id finds nothing, and every request stops at the 404.
  return hinted ? fc.oneof({ arbitrary: generated, weight: 1 }, { arbitrary: hinted, weight: 3 }) : generated;
}

function generatedFor(schema: JsonSchema, location: string, options: SchemaArbitraryOptions, depth: number): Arbitrary<unknown> {
  if (schema === true) return anyJson;
  if (schema === false) throw new Error(`${location}: the schema accepts nothing`);
  const unknown = Object.keys(schema).filter((keyword) => !GENERATED.has(keyword) && !ANNOTATIONS.has(keyword));
  if (unknown.length > 0) throw new Error(`${location}: no generator for ${unknown.join(", ")}`);
  if (typeof schema.$ref === "string") return arbitraryFor(options.resolve(schema.$ref), location, options, depth);
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (branches) return fc.oneof(...branches.map((branch) => arbitraryFor(branch, location, options, depth)));
  if (schema.type === undefined) return anyJson;
  const types = [schema.type].flat() as string[];
  return fc.oneof(...types.map((type) => ofType(type, schema, location, options, depth)));
}

function ofType(type: string, schema: Record<string, unknown>, location: string, options: SchemaArbitraryOptions, depth: number): Arbitrary<unknown> {
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
      return integers(schema);
    case "string":
      return strings(schema, location);
    case "array":
      return arrays(schema, location, options, depth);
    case "object":
      return objects(schema, location, options, depth);
    default:
      throw new Error(`${location}: no generator for type ${type}`);
  }
}

function integers(schema: Record<string, unknown>): Arbitrary<number> {
  const bound = (inclusive: unknown, exclusive: unknown, step: 1 | -1, fallback: number) =>
    typeof exclusive === "number" ? exclusive + step : typeof inclusive === "number" ? inclusive : fallback;
  const min = bound(schema.minimum, schema.exclusiveMinimum, 1, Number.MIN_SAFE_INTEGER);
  const max = bound(schema.maximum, schema.exclusiveMaximum, -1, Number.MAX_SAFE_INTEGER);
  return fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number);
}

/** Any Unicode text (astral characters, controls, NUL) of the lengths the schema allows, counted in code points as JSON Schema counts. */
function texts(minLength: number, maxLength: number): Arbitrary<string> {
  return fc.string({ unit: fc.oneof(fc.constantFrom("\u0000", " ", "\t", "\n", "\u00a0", "\ufeff"), fc.char(), fc.fullUnicode()), minLength, maxLength });
}

function strings(schema: Record<string, unknown>, location: string): Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? Infinity, minLength + 24);
  const lengthFits = (value: string) => {
    const length = [...value].length;
    return length >= minLength && length <= ((schema.maxLength as number | undefined) ?? Infinity);
  };
  if (typeof schema.pattern === "string") {
    const pattern = new RegExp(schema.pattern, "u");
    const matching = fc.stringMatching(pattern).filter(lengthFits);
    // stringMatching draws from few characters; a loose pattern (no NUL, not blank) also gets any text it admits.
    const free = texts(minLength, maxLength);
    const admitted = fc.sample(free, { numRuns: 100, seed: 1 }).filter((value) => pattern.test(value)).length;
    return admitted >= 20
      ? fc.oneof(
          matching,
          free.filter((value) => pattern.test(value)),
        )
      : matching;
  }
  if (schema.format === "uuid") return fc.uuid();
  if (schema.format !== undefined) throw new Error(`${location}: no generator for format ${String(schema.format)}`);
  return texts(minLength, maxLength);
}

function arrays(schema: Record<string, unknown>, location: string, options: SchemaArbitraryOptions, depth: number): Arbitrary<unknown[]> {
  const items = arbitraryFor((schema.items as JsonSchema | undefined) ?? true, `${location}[]`, options, depth + 1);
  const minLength = (schema.minItems as number | undefined) ?? 0;
  const maxLength = Math.max(minLength, Math.min((schema.maxItems as number | undefined) ?? Infinity, maxItemsAt(depth)));
  return schema.uniqueItems
    ? fc.uniqueArray(items, { minLength, maxLength, selector: (item) => JSON.stringify(item) })
    : fc.array(items, { minLength, maxLength });
}

function objects(schema: Record<string, unknown>, location: string, options: SchemaArbitraryOptions, depth: number): Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [name, arbitraryFor(property, `${location}.${name}`, options, depth + 1)]),
  );
  const declared = fc.record(model, { requiredKeys: required.filter((name) => name in properties) });
  if (schema.additionalProperties === false) return declared;
  // Anything else admits more members: send some, as a tester would.
  const extra =
    schema.additionalProperties === undefined || schema.additionalProperties === true
      ? anyJson
      : arbitraryFor(schema.additionalProperties as JsonSchema, `${location}.*`, options, depth + 1);
  const extraKeys = fc.string({ minLength: 1, maxLength: 8 }).filter((key) => !(key in properties) && key !== "__proto__");
  return fc.tuple(declared, fc.dictionary(extraKeys, extra, { maxKeys: 2 })).map(([known, more]) => ({ ...more, ...known }));
}
