// Generates the Prisma client for each provider (and the Pothos types) at install time.
// `prisma generate` never runs the native schema engine, but it tries to download it unless
// PRISMA_SCHEMA_ENGINE_BINARY names an existing file; any file will do, so offline installs work.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DATABASE_PROVIDERS, projectRoot, schemaFor, sourceSchemaPath } from "../dist/db/prisma-schemas.js";

const generatedSchemasDir = path.join(projectRoot, "prisma", "generated");
mkdirSync(generatedSchemasDir, { recursive: true });
const prismaCli = path.join(projectRoot, "node_modules", "prisma", "build", "index.js");
const env = {
  ...process.env,
  PATH: `${path.join(projectRoot, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};

for (const provider of DATABASE_PROVIDERS) {
  let schemaPath = sourceSchemaPath;
  if (provider !== "sqlite") {
    schemaPath = path.join(generatedSchemasDir, `${provider}.prisma`);
    writeFileSync(schemaPath, schemaFor(provider));
  }
  execFileSync(process.execPath, [prismaCli, "generate", "--schema", schemaPath], { cwd: projectRoot, env, stdio: "inherit" });
}
