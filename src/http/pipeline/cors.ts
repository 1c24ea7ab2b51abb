// CORS for /graphql and /v1, from TOOLGATE_CORS_ORIGINS: the same answers on both surfaces (Yoga's
// own CORS is off). Credentials are never allowed: toolgate authenticates with bearer headers only,
// so a page's requests carry a token only when its own code adds it.
import { editable, type Middleware } from "./middleware.js";

/** Request headers a browser may send cross-origin (beyond the CORS-safelisted ones). */
const CORS_ALLOWED_HEADERS = "authorization, content-type, accept, x-request-id, if-none-match";
/** Response headers a cross-origin page may read. */
const CORS_EXPOSED_HEADERS = "etag, x-request-id, retry-after, allow";
/** How long a browser may reuse a preflight's answer. */
const CORS_MAX_AGE_SECONDS = 600;

const CORS_PATH = /^\/(?:graphql\/?$|v1(?:\/|$))/;

export interface Cors {
  /** Whether `path` is one CORS applies to (/graphql and /v1). */
  covers(path: string): boolean;
  /**
   * The answer to a preflight from an allowed origin for a path offering `methods`; undefined when
   * the request is no preflight, the origin is not allowed or the path offers nothing (the router
   * then answers as it would without CORS, and the browser refuses the cross-origin request).
   */
  preflight(request: Request, methods: readonly string[]): Response | undefined;
  /** Allow-Origin and Expose-Headers for an allowed origin; Vary: Origin always (the answer depends on it). */
  decorate(request: Request, response: Response): Response;
}

/** Undefined when no origin is allowed: then no response carries CORS headers. */
export function createCors(origins: readonly string[]): Cors | undefined {
  if (origins.length === 0) return undefined;
  const anyOrigin = origins.includes("*");
  const allowed = new Set(origins);
  const allowOrigin = (origin: string | null): string | undefined => {
    if (origin === null) return undefined;
    if (anyOrigin) return "*";
    return allowed.has(origin) ? origin : undefined;
  };
  return {
    covers: (path) => CORS_PATH.test(path),
    preflight: (request, methods) => {
      const origin = allowOrigin(request.headers.get("origin"));
      if (!origin || methods.length === 0 || !request.headers.has("access-control-request-method")) return undefined;
      return new Response(null, {
        status: 204,
        headers: {
          allow: methods.join(", "),
          "access-control-allow-origin": origin,
          "access-control-allow-methods": methods.join(", "),
          "access-control-allow-headers": CORS_ALLOWED_HEADERS,
          "access-control-max-age": String(CORS_MAX_AGE_SECONDS),
          vary: "Origin",
        },
      });
    },
    decorate: (request, response) => {
      const edited = editable(response);
      const headers = edited.headers;
      if (!headers.has("access-control-allow-origin")) {
        const origin = allowOrigin(request.headers.get("origin"));
        if (origin) {
          headers.set("access-control-allow-origin", origin);
          headers.set("access-control-expose-headers", CORS_EXPOSED_HEADERS);
        }
      }
      const vary = headers.get("vary");
      if (!vary || !/(^|,)\s*origin\s*(,|$)/i.test(vary)) headers.set("vary", vary ? `${vary}, Origin` : "Origin");
      return edited;
    },
  };
}

/** The CORS headers of an allowed origin on answers to /graphql and /v1. */
export function corsHeaders(cors: Cors): Middleware {
  return async (request, exchange, next) => {
    const response = await next();
    return cors.covers(exchange.url.pathname) ? cors.decorate(request, response) : response;
  };
}

/** Answers an allowed origin's preflight to /graphql and /v1 with the methods the path offers; anything else goes on. */
export function corsPreflight(cors: Cors, allowedMethods: (path: string) => readonly string[]): Middleware {
  return async (request, exchange, next) => {
    const path = exchange.url.pathname;
    const preflight = request.method === "OPTIONS" && cors.covers(path) ? cors.preflight(request, allowedMethods(path)) : undefined;
    return preflight ?? next();
  };
}
