// The unauthenticated pages about the API: the OpenAPI document (/openapi.json), its reference page
// (/docs, Scalar's standalone bundle served from node_modules, no CDN), the landing page at /
// (landing.ts) and the index at /v1 that link every surface, and the site's icon.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { byteResponse } from "../byte-body.js";
import { FAVICON_PATH, faviconResponse } from "./favicon.js";
import { landingPage } from "./landing.js";
import { createOpenApiDocument } from "../rest/openapi.js";
import type { RestRoute } from "../rest/route.js";
import { readScalarBundle } from "./scalar-bundle.js";
import { sha256Base64url } from "../pipeline/etag.js";

/** A public path answering GET (the router adds HEAD, with the same handler). */
export interface Page {
  path: string;
  handle(request: Request): Promise<Response>;
}

/** Where everything is; / and /v1 list it. /metrics is served when configured. */
export const LINKS = {
  graphql: "/graphql",
  docs: "/docs",
  openapi: "/openapi.json",
  healthz: "/healthz",
  readyz: "/readyz",
  metrics: "/metrics",
} as const;

/** Pages change with a deploy: clients may keep them but revalidate (the representation step adds the ETag). */
const REVALIDATE = "no-cache";
/** The bundle's URL carries its version, so a cached copy is never stale. */
const IMMUTABLE = "public, max-age=31536000, immutable";

const require = createRequire(import.meta.url);
// The package exports only its module entry (dist/index.js); the browser bundle sits beside it.
const SCALAR_BUNDLE = path.join(path.dirname(require.resolve("@scalar/api-reference")), "browser", "standalone.js");
const SCALAR_VERSION = (JSON.parse(readFileSync(path.join(path.dirname(SCALAR_BUNDLE), "..", "..", "package.json"), "utf8")) as { version: string }).version;
export const SCALAR_BUNDLE_PATH = `/docs/assets/api-reference-${SCALAR_VERSION}.js`;

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * Scalar's settings for a page that works offline and talks to our origin only: no fonts from its
 * CDN, no request proxy (its default, proxy.scalar.com, would carry "try it" requests; ours go
 * straight to this origin), no telemetry, and none of its hosted services, whose buttons could only
 * fail here: the AI agent ("Ask AI", which also searches Scalar's registry), and the developer
 * toolbar ("Share", "Deploy", "Configure"). The API client opens from each operation's "Test Request".
 */
const SCALAR_CONFIGURATION = {
  url: LINKS.openapi,
  withDefaultFonts: false,
  hideClientButton: true,
  proxyUrl: "",
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: "never",
};

function docsPage(): string {
  // The configuration is an attribute, not an inline script, so a strict Content-Security-Policy can stay on.
  const configuration = JSON.stringify(SCALAR_CONFIGURATION);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolgate REST API reference</title>
<link rel="icon" href="${FAVICON_PATH}">
</head>
<body>
<script id="api-reference" data-url="${LINKS.openapi}" data-configuration="${escapeAttribute(configuration)}"></script>
<script src="${SCALAR_BUNDLE_PATH}"></script>
</body>
</html>
`;
}

const html = (body: string, cacheControl = REVALIDATE) =>
  new Response(body, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": cacheControl } });

/** The pages, each answering GET (the router adds HEAD). The bundle is read once, when first asked for. */
export function apiReferencePages(routes: readonly RestRoute[]): Page[] {
  const document = createOpenApiDocument(routes);
  const documentJson = JSON.stringify(document);
  const version = (document.info as { version: string }).version;
  const index = JSON.stringify({ name: "toolgate", version, links: LINKS });
  let bundle: Promise<{ bytes: Uint8Array; tag: string }> | undefined;
  return [
    { path: "/", handle: async () => html(landingPage(version, LINKS)) },
    { path: "/v1", handle: async () => new Response(index, { headers: { "content-type": "application/json", "cache-control": REVALIDATE } }) },
    { path: LINKS.openapi, handle: async () => new Response(documentJson, { headers: { "content-type": "application/json", "cache-control": REVALIDATE } }) },
    { path: LINKS.docs, handle: async () => html(docsPage()) },
    {
      path: SCALAR_BUNDLE_PATH,
      handle: async () => {
        // The same bytes every time: hashed for its ETag once.
        bundle ??= readScalarBundle(SCALAR_BUNDLE).then((bytes) => ({ bytes, tag: sha256Base64url(bytes) }));
        const { bytes, tag } = await bundle;
        return byteResponse(bytes, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": IMMUTABLE } }, tag);
      },
    },
    { path: FAVICON_PATH, handle: async () => faviconResponse() },
  ];
}
