// Times every answered request by route, GraphQL operation, method and status. Label values stay
// bounded: a route is the router's pattern (`/v1/tool-releases/:releaseId`, never a raw path),
// anything unrouted is "unmatched", and GraphQL operation names (chosen by clients) are kept up to
// MAX_OPERATION_NAMES distinct ones, later ones counted as "other".
import { Counter, Histogram, type Metric } from "prom-client";

/** Seconds; from a cached REST read (~1 ms) to a slow write under load. */
const HTTP_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
export const MAX_OPERATION_NAMES = 100;
const MAX_OPERATION_NAME_LENGTH = 64;
export const UNMATCHED_ROUTE = "unmatched";
const ANONYMOUS_OPERATION = "anonymous";
const OTHER_OPERATION = "other";

export interface RequestMetrics {
  /** `operation`: "" outside GraphQL (the series then has no operation label). */
  observe(route: string, method: string, operation: string, status: number, seconds: number): void;
  /** The label for a GraphQL operation name, bounded. */
  operationLabel(name: string | undefined): string;
  readonly exported: readonly Metric[];
}

const LABEL_NAMES = ["route", "operation", "method", "status"] as const;

export function createRequestMetrics(): RequestMetrics {
  // Registered by the service's registry (service-metrics.ts), not prom-client's global one.
  const durations = new Histogram({
    name: "toolgate_http_request_duration_seconds",
    help: "Time from request to response headers, by route, GraphQL operation, method and status.",
    buckets: HTTP_DURATION_BUCKETS,
    labelNames: LABEL_NAMES,
    registers: [],
  });
  const requests = new Counter({
    name: "toolgate_http_requests_total",
    help: "Requests answered, by route, GraphQL operation, method and status.",
    labelNames: LABEL_NAMES,
    registers: [],
  });
  const operationNames = new Set<string>();

  return {
    observe: (route, method, operation, status, seconds) => {
      // Outside GraphQL the series has no operation label.
      const labels = operation === "" ? { route, method, status } : { route, operation, method, status };
      durations.observe(labels, seconds);
      requests.inc(labels);
    },
    operationLabel: (name) => {
      if (name === undefined || name === "") return ANONYMOUS_OPERATION;
      if (operationNames.has(name)) return name;
      if (name.length > MAX_OPERATION_NAME_LENGTH || operationNames.size >= MAX_OPERATION_NAMES) return OTHER_OPERATION;
      operationNames.add(name);
      return name;
    },
    exported: [durations, requests],
  };
}
