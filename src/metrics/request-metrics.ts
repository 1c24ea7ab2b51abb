// Times every answered request by route, GraphQL operation, method and status. Label values stay
// bounded: a route is the router's pattern (`/v1/tool-releases/:releaseId`, never a raw path),
// anything unrouted is "unmatched", and GraphQL operation names (chosen by clients) are kept up to
// MAX_OPERATION_NAMES distinct ones, later ones counted as "other". The hot path is four map
// lookups and a histogram increment: series are made once per label set and kept.
import { SeriesCounter, SeriesHistogram, type ExportedMetric, type Series } from "./histogram.js";

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
  readonly exported: readonly ExportedMetric[];
}

type ByStatus = Map<number, Series>;

export function createRequestMetrics(): RequestMetrics {
  const durations = new SeriesHistogram(
    "toolgate_http_request_duration_seconds",
    "Time from request to response headers, by route, GraphQL operation, method and status.",
    HTTP_DURATION_BUCKETS,
  );
  const requests = new SeriesCounter("toolgate_http_requests_total", "Requests answered, by route, GraphQL operation, method and status.", durations);
  const byRoute = new Map<string, Map<string, Map<string, ByStatus>>>();
  const operationNames = new Set<string>();

  const seriesFor = (route: string, method: string, operation: string, status: number): Series => {
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map()));
    let byOperation = byMethod.get(method);
    if (!byOperation) byMethod.set(method, (byOperation = new Map()));
    let byStatus = byOperation.get(operation);
    if (!byStatus) byOperation.set(operation, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series)
      byStatus.set(
        status,
        (series = durations.series(operation === "" ? { route, method, status: String(status) } : { route, operation, method, status: String(status) })),
      );
    return series;
  };

  return {
    observe: (route, method, operation, status, seconds) => seriesFor(route, method, operation, status).observe(seconds),
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
