// Writes GraphiQL's files into dist/graphiql/ at build time (scripts/build.mjs; served by
// graphiql-assets.ts). @graphql-yoga/render-graphiql exports them as strings for a page that inlines
// them all (9 MB); here each becomes a file named by its content, with brotli and gzip variants
// beside it. Brotli at quality 9: 1.6 s of CPU for their 8.8 MB and 2.0 MB written, where the best
// quality (11) takes 18 s of every fresh install for 1.8 MB. The variants already written by an
// earlier build are kept (the build leaves this folder in place) and only new content is
// compressed; files of older contents are deleted.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { css, editorWorkerService, graphqlWorker, js, jsonWorker } from "@graphql-yoga/render-graphiql/graphiql";
import { GRAPHIQL_MANIFEST_FILE, type GraphiQLManifest } from "./graphiql-assets.js";
import { GRAPHIQL_BOOT_SCRIPT } from "./graphiql-boot.js";
import { PRECOMPRESSED_SUFFIXES } from "./precompressed-files.js";

const brotliCompress = promisify(zlib.brotliCompress);
const BROTLI_QUALITY = 9;
const gzip = promisify(zlib.gzip);

const compressions: Record<string, (bytes: Buffer) => Promise<Buffer>> = {
  [PRECOMPRESSED_SUFFIXES.br]: (bytes) =>
    brotliCompress(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }),
  [PRECOMPRESSED_SUFFIXES.gzip]: (bytes) => gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
};

/** Writes every file and its variants, then the manifest (last, so a manifest lists only written files). */
export async function writeGraphiQLAssets(dir: string): Promise<GraphiQLManifest> {
  mkdirSync(dir, { recursive: true });
  const write = (stem: string, extension: string, text: string) => writeAsset(dir, stem, extension, text);
  const [script, stylesheet, boot, editorWorkerServiceFile, jsonWorkerFile, graphqlWorkerFile] = await Promise.all([
    write("graphiql", "js", js),
    write("graphiql", "css", css),
    write("boot", "js", GRAPHIQL_BOOT_SCRIPT),
    write("editor.worker", "js", editorWorkerService),
    write("json.worker", "js", jsonWorker),
    write("graphql.worker", "js", graphqlWorker),
  ]);
  const manifest: GraphiQLManifest = {
    script,
    stylesheet,
    boot,
    workers: { editorWorkerService: editorWorkerServiceFile, json: jsonWorkerFile, graphql: graphqlWorkerFile },
  };
  const current = new Set([GRAPHIQL_MANIFEST_FILE, ...[script, stylesheet, boot, ...Object.values(manifest.workers)].flatMap(variantsOf)]);
  for (const file of readdirSync(dir)) if (!current.has(file)) rmSync(path.join(dir, file), { force: true });
  writeAtomically(path.join(dir, GRAPHIQL_MANIFEST_FILE), JSON.stringify(manifest, null, 1));
  return manifest;
}

const variantsOf = (file: string) => [file, ...Object.keys(compressions).map((suffix) => file + suffix)];

/** `<stem>.<content hash>.<extension>` and its compressed variants, those missing written; its name. */
async function writeAsset(dir: string, stem: string, extension: string, text: string): Promise<string> {
  const bytes = Buffer.from(text);
  const file = `${stem}.${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}.${extension}`;
  const written = (name: string) => existsSync(path.join(dir, name));
  if (!written(file)) writeAtomically(path.join(dir, file), bytes);
  await Promise.all(
    Object.entries(compressions)
      .filter(([suffix]) => !written(file + suffix))
      .map(async ([suffix, compress]) => writeAtomically(path.join(dir, file + suffix), await compress(bytes))),
  );
  return file;
}

/** A build stopped halfway leaves no truncated file under a name the next build would trust. */
function writeAtomically(file: string, content: string | Uint8Array): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, content);
  renameSync(partial, file);
}
