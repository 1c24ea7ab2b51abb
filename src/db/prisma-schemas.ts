// Derives each provider's Prisma schema from prisma/schema.prisma, the single source of truth.
// The PostgreSQL variant only changes the datasource provider and the client output folder, and
// drops the Pothos generator (its types do not depend on the provider and are generated once).
import { readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../project-root.js";

export type DatabaseProvider = "sqlite" | "postgresql";
export const DATABASE_PROVIDERS: readonly DatabaseProvider[] = ["sqlite", "postgresql"];

export { projectRoot };
/** @public scripts/generate-clients.mjs reads it from the build. */
export const sourceSchemaPath = path.join(projectRoot, "prisma", "schema.prisma");
export const migrationsRoot = path.join(projectRoot, "prisma", "migrations");

function readSourceSchema(): string {
  return readFileSync(sourceSchemaPath, "utf8");
}

export function schemaFor(provider: DatabaseProvider, source = readSourceSchema()): string {
  if (provider === "sqlite") return source;
  return source
    .replace(/generator pothos \{[^}]*\}\n*/, "")
    .replace(/(datasource db \{\s*provider\s*=\s*)"sqlite"/, `$1"${provider}"`)
    .replace(/output(\s*)= "\.\.\/src\/db\/generated\/sqlite"/, `output$1= "../../src/db/generated/${provider}"`);
}
