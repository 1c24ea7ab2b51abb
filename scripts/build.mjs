// Compiles src/ so the CLI and server start without a TypeScript compiler, in two forms:
// - dist/<path>.js, one ES module per source file (what scripts and tools import, e.g. the client
//   generator below);
// - dist/bundle/, what bin/toolgate.js runs: the CLI and its dependencies bundled into a few chunks.
//   Node resolves, reads and compiles ~1,500 modules otherwise, which was half of a server's
//   start-up (docs/performance.md).
// - dist/graphiql/, GraphiQL's scripts, stylesheet and editor workers as files named by their
//   content, each with brotli and gzip variants (src/http/pages/graphiql-asset-build.ts). Compressing
//   them takes ~20 s of CPU, so this folder is kept from build to build and only new content is
//   compressed.
// Type checking is `npm run typecheck`; this only strips types and bundles. `npm start`, `npm test`
// and `npm install` run it every time: it compares a digest of its inputs (src/, the lockfile, this
// script) with the one stored by the last complete build and does nothing when they match, so dist/
// is never stale and an unchanged checkout starts at once. `--force` builds anyway.
// `--with-clients` first generates the Prisma clients into src/db/generated (the install step), again
// only when the schema, the generator or the Prisma packages changed.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = path.join(projectRoot, "src");
const outDir = path.join(projectRoot, "dist");
const graphiqlDir = path.join(outDir, "graphiql");

function typescriptFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return typescriptFiles(file);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [file] : [];
  });
}

/**
 * Left as packages: native addons, packages that read files of their own beside their code (WASM,
 * the API reference's browser bundle, pino's worker transports), and the browser driver tests use.
 */
const UNBUNDLED = ["better-sqlite3", "@prisma/schema-engine-wasm", "pg-native", "pino", "thread-stream", "@scalar/api-reference", "playwright-core"];

/**
 * Every import of graphql, `require("graphql/language/parser")` of a CommonJS dependency included,
 * resolves to graphql's ES module files: one copy of its classes in the bundle, so `instanceof
 * GraphQLError` holds for errors thrown by any dependency (graphql-armor's parser is CommonJS).
 */
const oneGraphql = {
  name: "one-graphql",
  setup(onBuild) {
    const graphqlRoot = path.join(projectRoot, "node_modules", "graphql");
    onBuild.onResolve({ filter: /^graphql(\/.*)?$/ }, (args) => {
      const subpath = args.path
        .slice("graphql".length)
        .replace(/^\//, "")
        .replace(/\.(m?js)$/, "");
      const file = path.join(graphqlRoot, subpath === "" ? "index.mjs" : `${subpath}.mjs`);
      if (existsSync(file)) return { path: file };
      const indexFile = path.join(graphqlRoot, subpath, "index.mjs");
      return existsSync(indexFile) ? { path: indexFile } : undefined;
    });
  },
};

/** graphql-jit's JSON-schema serializer, which toolgate does not use, as a stub (scripts/bundle-stubs/). */
const withoutJsonSchemaSerializer = {
  name: "without-json-schema-serializer",
  setup(onBuild) {
    onBuild.onResolve({ filter: /^fast-json-stringify$/ }, () => ({ path: path.join(projectRoot, "scripts", "bundle-stubs", "fast-json-stringify.mjs") }));
  },
};

/**
 * Prisma's query compiler as a .wasm file beside the bundle (dist/bundle/query_compiler_fast_bg.<provider>.wasm),
 * instead of the module the generated client imports: the compiler as base64 in one string literal,
 * which V8 keeps twice for the life of the process (the module's source and the literal).
 */
const queryCompilerFromFile = {
  name: "query-compiler-from-file",
  setup(onBuild) {
    const loading =
      /const \{ wasm \} = await import\("@prisma\/client\/runtime\/query_compiler_fast_bg\.(postgresql|sqlite)\.wasm-base64\.mjs"\)\s*return await decodeBase64AsWasm\(wasm\)/;
    onBuild.onLoad({ filter: /[\\/]src[\\/]db[\\/]generated[\\/][^\\/]+[\\/]internal[\\/]class\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const found = loading.exec(source);
      if (!found)
        throw new Error(
          `${args.path}: the generated client no longer imports its query compiler as expected; update queryCompilerFromFile in scripts/build.mjs`,
        );
      const wasmFile = `query_compiler_fast_bg.${found[1]}.wasm`;
      const base64Module = readFileSync(
        inProject("node_modules", "@prisma", "client", "runtime", `query_compiler_fast_bg.${found[1]}.wasm-base64.mjs`),
        "utf8",
      );
      const base64 = /const wasm = "([A-Za-z0-9+/=]+)"/.exec(base64Module)?.[1];
      if (!base64) throw new Error(`the base64 module of ${wasmFile} has an unexpected form; update queryCompilerFromFile in scripts/build.mjs`);
      mkdirSync(path.join(outDir, "bundle"), { recursive: true });
      writeFileSync(path.join(outDir, "bundle", wasmFile), Buffer.from(base64, "base64"));
      const fromFile = `const { readFile } = await import("node:fs/promises");
    return new WebAssembly.Module(await readFile(new URL("./${wasmFile}", import.meta.url)))`;
      return { contents: source.replace(loading, fromFile), loader: "ts" };
    });
  },
};

async function bundle() {
  const result = await build({
    // The launcher bounds the heap before the CLI loads (bin/toolgate.js); both share chunks.
    entryPoints: { toolgate: path.join(sourceDir, "cli", "main.ts"), "heap-growth": path.join(sourceDir, "heap-growth.ts") },
    outdir: path.join(outDir, "bundle"),
    bundle: true,
    // The CLI's lazy imports (the server, the demo) stay lazy: chunks loaded on first use.
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: UNBUNDLED,
    // ES module builds first: graphql's CommonJS build re-exports through getters, and esbuild's
    // interop wraps them in more, which cost ~4 % of a nested read's CPU in graphql-js' hot path.
    mainFields: ["module", "main"],
    // CommonJS dependencies call require(); an ES module has none unless it makes one.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    sourcemap: "linked",
    sourcesContent: false,
    plugins: [oneGraphql, withoutJsonSchemaSerializer, queryCompilerFromFile],
    metafile: true,
    logLevel: "warning",
  });
  // What went into the bundle, for the test that checks it holds one graphql.
  writeFileSync(path.join(outDir, "bundle", "inputs.json"), JSON.stringify(Object.keys(result.metafile.inputs).sort(), null, 1));
}

async function compile() {
  mkdirSync(outDir, { recursive: true });
  for (const entry of readdirSync(outDir)) {
    const file = path.join(outDir, entry);
    if (file !== graphiqlDir) rmSync(file, { recursive: true, force: true });
  }
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

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

/** SHA-256 over the files' paths and contents, in a fixed order; a missing file counts as empty. */
function digestOf(files) {
  const hash = createHash("sha256");
  for (const file of [...files].sort()) {
    hash.update(path.relative(projectRoot, file)).update("\0");
    if (existsSync(file)) hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

const inProject = (...parts) => path.join(projectRoot, ...parts);
const storedDigest = (file) => (existsSync(file) ? readFileSync(file, "utf8") : undefined);
const force = process.argv.includes("--force");

const clientsDir = path.join(sourceDir, "db", "generated");
const clientsDigestFile = path.join(clientsDir, ".inputs-sha256");
const clientInputs = () =>
  digestOf([
    inProject("prisma", "schema.prisma"),
    inProject("src", "db", "prisma-schemas.ts"),
    inProject("scripts", "generate-clients.mjs"),
    ...["prisma", "@prisma/client", "@pothos/plugin-prisma"].map((name) => inProject("node_modules", name, "package.json")),
  ]);

const buildDigestFile = path.join(outDir, ".inputs-sha256");
const buildInputs = () =>
  digestOf([...filesUnder(sourceDir), ...filesUnder(inProject("scripts", "bundle-stubs")), fileURLToPath(import.meta.url), inProject("package-lock.json")]);

if (process.argv.includes("--with-clients")) {
  const digest = clientInputs();
  if (force || storedDigest(clientsDigestFile) !== digest) {
    // The client generator reads the provider schemas through dist/db/prisma-schemas.js.
    await compile();
    execFileSync(process.execPath, [path.join(projectRoot, "scripts", "generate-clients.mjs")], { stdio: "inherit" });
    writeFileSync(clientsDigestFile, digest);
  }
}
const digest = buildInputs();
if (!force && storedDigest(buildDigestFile) === digest && existsSync(path.join(outDir, "bundle", "toolgate.js"))) {
  console.log("dist/ is up to date");
} else {
  // compile() empties dist/ first, the stored digest included: a build stopped halfway is redone.
  await compile();
  await bundle();
  // Imported from the compile step's output, as the client generator does.
  const { writeGraphiQLAssets } = await import(new URL("../dist/http/pages/graphiql-asset-build.js", import.meta.url).href);
  await writeGraphiQLAssets(graphiqlDir);
  writeFileSync(buildDigestFile, digest);
}
