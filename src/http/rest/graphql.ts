// The REST layer's `graphql` tag: a route's fixed document, parsed, with result and variables types
// that gql.tada derives at compile time from the document and the schema (graphql-env.d.ts, written
// by `npm run schema`). Renaming or retyping a field a route selects therefore fails `tsc`.
import type { initGraphQLTada } from "gql.tada";
import { parse, type DefinitionNode, type DocumentNode } from "graphql";
import type { introspection } from "./graphql-env.js";

/** What the JSON scalar holds; typed, not unknown, so route.ts can tell it from a field the schema lacks. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

type TypedGraphQL = initGraphQLTada<{
  introspection: introspection;
  scalars: { UUID: string; DateTime: string; JSON: JsonValue };
  // A fragment's fields are part of the result type, as they are of the result.
  disableMasking: true;
}>;

const nameOf = (definition: DefinitionNode) => ("name" in definition ? definition.name?.value : undefined);

/** graphql-js's parse with the fragments' definitions appended once each: what gql.tada's tag does at runtime. */
function parseWithFragments(source: string, fragments: readonly DocumentNode[] = []): DocumentNode {
  const document = parse(source);
  const definitions = [...document.definitions];
  for (const definition of fragments.flatMap((fragment) => fragment.definitions)) {
    if (!definitions.some((present) => nameOf(present) === nameOf(definition))) definitions.push(definition);
  }
  return { ...document, definitions };
}

// gql.tada is a devDependency: only its types are used, so dist/ runs without it.
export const graphql = parseWithFragments as unknown as TypedGraphQL;
export type { ResultOf, VariablesOf } from "gql.tada";
