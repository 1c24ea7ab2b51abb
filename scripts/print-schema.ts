// `npm run schema`: writes schema.graphql at the repository root, the schema as clients see it
// (SDL with descriptions). test/graphql/schema-file.test.ts fails while the file is stale.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { printSchema } from "graphql";
import { buildSchema } from "../src/graphql/schema.js";

const file = fileURLToPath(new URL("../schema.graphql", import.meta.url));
writeFileSync(file, `${printSchema(buildSchema())}\n`);
console.log(`wrote ${file}`);
