// GET /metrics: the Prometheus exposition, behind a bearer token when TOOLGATE_METRICS_TOKEN is set,
// on the main port or, with TOOLGATE_METRICS_PORT, on a port of its own (docs/deploy.md).
import { createHash, timingSafeEqual } from "node:crypto";
import type { ServiceMetrics } from "../../metrics/service-metrics.js";
import { errorResponseFor } from "../errors.js";
import { methodRefusal } from "../api/method-refusal.js";
import { withSecurityHeaders } from "../pipeline/security-headers.js";
import { listen, type RunningServer } from "../server/listen.js";

export const METRICS_PATH = "/metrics";

export function metricsHandler(metrics: ServiceMetrics, token: string | undefined): (request: Request) => Promise<Response> {
  const expected = token === undefined ? undefined : digest(token);
  return async (request) => {
    if (expected && !bearerMatches(request.headers.get("authorization"), expected)) {
      return errorResponseFor("AUTH_UNAUTHORIZED", "/metrics needs Authorization: Bearer <TOOLGATE_METRICS_TOKEN>", {
        "www-authenticate": 'Bearer realm="metrics"',
      });
    }
    return new Response(request.method === "HEAD" ? null : await metrics.scrape(), {
      headers: { "content-type": metrics.contentType, "cache-control": "no-store" },
    });
  };
}

/** Compared as SHA-256 digests: equal lengths for timingSafeEqual, and no timing leak of the token's length. */
function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

function bearerMatches(authorization: string | null, expected: Buffer): boolean {
  const match = authorization && /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return Boolean(match) && timingSafeEqual(digest(match![1]!), expected);
}

/** A server that answers /metrics and nothing else. */
export async function listenForMetrics(metrics: ServiceMetrics, token: string | undefined, port: number, host: string): Promise<RunningServer> {
  const handle = metricsHandler(metrics, token);
  const refuseMethod = methodRefusal((path) => (path === METRICS_PATH ? ["GET", "HEAD"] : []));
  const handler = async (request: Request) => {
    const { pathname } = new URL(request.url);
    const response =
      pathname !== METRICS_PATH
        ? errorResponseFor("NOT_FOUND", `no route for ${request.method} ${pathname}; this port serves ${METRICS_PATH}`)
        : request.method === "GET" || request.method === "HEAD"
          ? await handle(request)
          : refuseMethod(request.method, pathname);
    return withSecurityHeaders(response);
  };
  return listen(Object.assign(handler, { refuseMethod }), port, host);
}
