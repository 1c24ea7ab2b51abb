// `npm run schema`: writes schema.graphql at the repository root, the schema as clients see it
// (SDL with descriptions), and src/http/rest/graphql-env.d.ts, the same schema as the type gql.tada
// reads to type the REST layer's documents. test/graphql/schema-file.test.ts fails while either is stale.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSchema } from "../src/graphql/schema.js";
import { printedSchema, schemaTypesFile } from "./schema-outputs.js";

const schema = buildSchema();
for (const [relative, text] of [
  ["../schema.graphql", printedSchema(schema)],
  ["../src/http/rest/graphql-env.d.ts", schemaTypesFile(schema)],
] as const) {
  const file = fileURLToPath(new URL(relative, import.meta.url));
  writeFileSync(file, text);
  console.log(`wrote ${file}`);
}
