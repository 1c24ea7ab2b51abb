// Counts and times each request in the request metrics (src/metrics/request-metrics.ts), labelled
// with the route pattern that answered and, on /graphql, the operation it ran.
import { UNMATCHED_ROUTE, type RequestMetrics } from "../../metrics/request-metrics.js";
import type { Middleware } from "./middleware.js";

export function countedInMetrics(metrics: RequestMetrics): Middleware {
  return async (request, exchange, next) => {
    const response = await next();
    // "*" is the router's fallback (404, 405, OPTIONS).
    const route = exchange.route === undefined || exchange.route === "*" ? UNMATCHED_ROUTE : exchange.route;
    const operation = route === "/graphql" ? metrics.operationLabel(exchange.operationName) : "";
    metrics.observe(route, request.method, operation, response.status, (performance.now() - exchange.started) / 1000);
    return response;
  };
}
