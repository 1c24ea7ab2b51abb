// The files generated from the schema, as text: shared by `npm run schema` and the test that
// fails while a committed copy is stale.
import { introspectionFromSchema, printSchema, type GraphQLSchema } from "graphql";
import { outputIntrospectionFile } from "gql.tada/internal";

export const printedSchema = (schema: GraphQLSchema): string => `${printSchema(schema)}\n`;

/** The schema as gql.tada's `introspection` type, preprocessed so tsc does not re-derive it on every check. */
export const schemaTypesFile = (schema: GraphQLSchema): string =>
  outputIntrospectionFile(introspectionFromSchema(schema, { descriptions: false }), { fileType: ".d.ts", shouldPreprocess: true });
