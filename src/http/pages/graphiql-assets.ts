// GraphiQL's files: its bundle, stylesheet and boot script, and Monaco's three editor workers. The
// build writes them into dist/graphiql/ (graphiql-asset-build.ts), each named by its content and
// beside its brotli and gzip variants, and lists them in dist/graphiql/manifest.json; they are served
// under /graphiql/assets/, cached for a year (a new content is a new URL). The page that loads them
// is graphiql.ts.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { projectRoot } from "../../project-root.js";
import type { Page } from "./api-reference.js";
import { errorResponseFor } from "../errors.js";
import { precompressedFiles } from "./precompressed-files.js";

const GRAPHIQL_ASSETS_DIR = path.join(projectRoot, "dist", "graphiql");
export const GRAPHIQL_MANIFEST_FILE = "manifest.json";
const GRAPHIQL_ASSETS_PATH = "/graphiql/assets/";

/** The labels Monaco asks its environment's getWorkerUrl for. */
export const MONACO_WORKER_LABELS = ["editorWorkerService", "json", "graphql"] as const;
type MonacoWorkerLabel = (typeof MONACO_WORKER_LABELS)[number];

/** File names in GRAPHIQL_ASSETS_DIR. */
export interface GraphiQLManifest {
  script: string;
  stylesheet: string;
  boot: string;
  workers: Record<MonacoWorkerLabel, string>;
}

export const graphiqlAssetUrl = (file: string) => GRAPHIQL_ASSETS_PATH + file;

const IMMUTABLE = "public, max-age=31536000, immutable";
const CONTENT_TYPES: Record<string, string> = { ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };

let manifest: Promise<GraphiQLManifest> | undefined;

/** The build's manifest, read once; a failed read (not built yet) is tried again next time. */
export function readGraphiQLManifest(): Promise<GraphiQLManifest> {
  manifest ??= readFile(path.join(GRAPHIQL_ASSETS_DIR, GRAPHIQL_MANIFEST_FILE), "utf8").then(
    (text) => JSON.parse(text) as GraphiQLManifest,
    (error: unknown) => {
      manifest = undefined;
      throw new Error(`GraphiQL's assets are not built (${GRAPHIQL_ASSETS_DIR}): run \`npm run build\``, { cause: error });
    },
  );
  return manifest;
}

const filesOf = (listed: GraphiQLManifest) => new Set([listed.script, listed.stylesheet, listed.boot, ...Object.values(listed.workers)]);

/** GET (and HEAD) /graphiql/assets/<file>: the files the manifest lists, nothing else. */
export function graphiqlAssetPage(): Page {
  const send = precompressedFiles();
  return {
    path: `${GRAPHIQL_ASSETS_PATH}:file`,
    handle: async (request) => {
      const file = new URL(request.url).pathname.slice(GRAPHIQL_ASSETS_PATH.length);
      const contentType = CONTENT_TYPES[path.extname(file)];
      if (!filesOf(await readGraphiQLManifest()).has(file) || !contentType) {
        return errorResponseFor("NOT_FOUND", `no GraphiQL asset ${file}`);
      }
      return send(request, { path: path.join(GRAPHIQL_ASSETS_DIR, file), contentType, cacheControl: IMMUTABLE });
    },
  };
}
