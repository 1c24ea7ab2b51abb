// Compiles src/ to dist/ (one ES module per file, no bundling) so the CLI and server start without
// a TypeScript compiler. Type checking is `npm run typecheck`; this only strips types, in well under
// a second, so `npm start`, `npm test` and `npm install` run it every time and dist/ is never stale.
// `--with-clients` first generates the Prisma clients into src/db/generated (the install step).
import { execFileSync } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = path.join(projectRoot, "src");
const outDir = path.join(projectRoot, "dist");

function typescriptFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return typescriptFiles(file);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

async function compile() {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: typescriptFiles(sourceDir),
    outdir: outDir,
    outbase: sourceDir,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
  });
}

if (process.argv.includes("--with-clients")) {
  // The client generator reads the provider schemas through dist/db/prisma-schemas.js.
  await compile();
  execFileSync(process.execPath, [path.join(projectRoot, "scripts", "generate-clients.mjs")], { stdio: "inherit" });
}
await compile();
