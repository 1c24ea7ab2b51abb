// Headers every response carries, whatever answered it: no MIME sniffing, no referrer, no framing,
// and a Content-Security-Policy. JSON answers get one that allows nothing; HTML pages (GraphiQL,
// /docs, /) one that allows our own origin only: their scripts, styles, workers and requests are
// ours, and no page has an inline script.
import { editable, type Middleware } from "./middleware.js";

/** For JSON and everything that is not a page: nothing may load, nothing may frame it. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** For HTML pages. */
const PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Page libraries set style attributes and inject <style> elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  // GraphiQL's editor workers are files of ours (graphiql-assets.ts), not blob: URLs.
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** What every response carries, whatever its type. */
export const FIXED_SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ["x-content-type-options", "nosniff"],
  ["referrer-policy", "no-referrer"],
  // frame-ancestors in the CSP says the same to browsers that read it; this is for those that do not.
  ["x-frame-options", "DENY"],
];

export function withSecurityHeaders(response: Response): Response {
  const edited = editable(response);
  const headers = edited.headers;
  for (const [name, value] of FIXED_SECURITY_HEADERS) headers.set(name, value);
  if (!headers.has("content-security-policy")) {
    headers.set("content-security-policy", headers.get("content-type")?.startsWith("text/html") ? PAGE_CONTENT_SECURITY_POLICY : API_CONTENT_SECURITY_POLICY);
  }
  return edited;
}

export const securityHeaders: Middleware = async (_request, _exchange, next) => withSecurityHeaders(await next());
