// GET and HEAD /healthz answered on node:http itself. Orchestrators and load balancers poll it
// several times a second per replica, and the fetch pipeline around a 15-byte answer (node request →
// fetch Request, router, representation, Response → node) costs many times what node:http does
// (docs/performance.md). This writes what the pipeline writes (status, headers, body), counts the
// request in the same metrics and logs the same access line. Only the exact path is taken:
// `/healthz?…` and every other method go through the pipeline, which is how the tests compare the two.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { CACHE_CONTROL_OTHER } from "../pipeline/representation.js";
import { requestIdFor } from "../pipeline/request-id.js";
import type { RequestMetrics } from "../../metrics/request-metrics.js";
import { API_CONTENT_SECURITY_POLICY, FIXED_SECURITY_HEADERS } from "../pipeline/security-headers.js";

export const HEALTHZ_PATH = "/healthz";
export const HEALTHZ_BODY = JSON.stringify({ status: "ok" });

/** Answers the request and says true, or says false and leaves it to the fetch pipeline. */
export type NodeFastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

export function healthzFastPath(logger: Logger, requestMetrics: RequestMetrics | undefined): NodeFastPath {
  const body = Buffer.from(HEALTHZ_BODY);
  // A flat [name, value, …] list: node:http takes it as is, an object it would convert per answer.
  const headers = [
    ["cache-control", CACHE_CONTROL_OTHER],
    ["content-length", String(body.byteLength)],
    ["content-security-policy", API_CONTENT_SECURITY_POLICY],
    ["content-type", "application/json"],
    ["vary", "Accept-Encoding"],
    ...FIXED_SECURITY_HEADERS,
  ].flat();
  const logsRequests = logger.isLevelEnabled("info");
  return (request, response) => {
    const method = request.method;
    if (request.url !== HEALTHZ_PATH || (method !== "GET" && method !== "HEAD")) return false;
    const started = performance.now();
    const incoming = request.headers["x-request-id"];
    const requestId = requestIdFor(typeof incoming === "string" ? incoming : undefined);
    response.writeHead(200, [...headers, "x-request-id", requestId]);
    response.end(method === "GET" ? body : undefined);
    const durationMs = performance.now() - started;
    requestMetrics?.observe(HEALTHZ_PATH, method, "", 200, durationMs / 1000);
    if (logsRequests) logger.info({ requestId, method, path: HEALTHZ_PATH, status: 200, durationMs: Math.round(durationMs * 100) / 100 }, "request");
    return true;
  };
}
