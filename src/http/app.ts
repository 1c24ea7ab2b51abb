// The fetch handler: the request pipeline, one list of steps in the order they run, around the
// route table (router.ts). Each step is a middleware of its own (pipeline/): the first listed sees
// the request first and the response last.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import { dataVersionOf, type Database } from "../db/client.js";
import { cachedTokenLookup } from "../domain/token-cache.js";
import { compilingExecutor } from "../graphql/compiled-execution.js";
import { DefinitionCache } from "../graphql/stored-definitions.js";
import { tokenLookupIn } from "../domain/tokens.js";
import type { RequestMetrics } from "../metrics/request-metrics.js";
import type { DefinitionCacheStats, ReadCacheStats } from "../metrics/service-metrics.js";
import { createRateLimiter, type RateLimitConfig } from "./api/rate-limit.js";
import type { MethodRefusal } from "./api/method-refusal.js";
import { ReadCache } from "./api/read-cache.js";
import { createGraphQLHandler } from "./graphql-endpoint/yoga.js";
import { healthzFastPath, type NodeFastPath } from "./ops/health-fast-path.js";
import type { GraphiQLPageOptions } from "./pages/graphiql.js";
import { accessLog } from "./pipeline/access-log.js";
import { closeAfterRefusedBody } from "./pipeline/connection-close.js";
import { corsHeaders, corsPreflight, createCors } from "./pipeline/cors.js";
import { errorBoundary } from "./pipeline/error-boundary.js";
import { compose, type Exchange, type Middleware } from "./pipeline/middleware.js";
import { representation } from "./pipeline/representation.js";
import { requestIdFor, requestIdHeader } from "./pipeline/request-id.js";
import { countedInMetrics } from "./pipeline/request-metrics.js";
import { securityHeaders } from "./pipeline/security-headers.js";
import type { RestRoute } from "./rest/route.js";
import type { WebhookPolicy } from "../domain/webhooks.js";
import { webhookUrlPolicy } from "../webhooks/url-policy.js";
import { createRouter } from "./router.js";
import { abandonmentOf } from "./server/node-request.js";

export interface AppOptions {
  db: Database;
  schema: GraphQLSchema;
  routes: readonly RestRoute[];
  logger: Logger;
  introspection: boolean;
  /** Off when omitted. */
  rateLimit?: RateLimitConfig | undefined;
  graphiql?: GraphiQLPageOptions | undefined;
  /** Answers /readyz; false while shutting down. */
  isReady(): boolean;
  /** How long a looked-up token is trusted before it is read again (0: every request reads it). */
  tokenCacheMs?: number | undefined;
  /** Memory for answers to repeated reads, valid until the next committed change (api/read-cache.ts); 0 or omitted: off. */
  readCacheBytes?: number | undefined;
  /** Memory for stored definition texts read before (graphql/stored-definitions.ts); 0 or omitted: none kept. */
  definitionCacheBytes?: number | undefined;
  // Operability (docs/deploy.md).
  /** Where each answered request is counted and timed; nowhere when omitted. */
  requestMetrics?: RequestMetrics | undefined;
  /** Answers GET /metrics on this port; omitted when metrics are served on a port of their own. */
  metricsEndpoint?: ((request: Request) => Promise<Response>) | undefined;
  /** Origins allowed to call /graphql and /v1 from a browser (`*`: any); none when omitted. */
  corsOrigins?: readonly string[] | undefined;
  /** Which URLs webhooks may be given; public https URLs only when omitted. */
  webhookPolicy?: WebhookPolicy | undefined;
}

/** On node:http, the node request and response come beside the fetch Request, as `req` and `res`. */
export type FetchHandler = (request: Request, serverContext?: object) => Promise<Response>;

/**
 * The app also tells which method and path patterns its router serves (tests hold the OpenAPI
 * document to it), answers the health check before any fetch conversion (health-fast-path.ts), and
 * refuses methods node:http cannot hand to it as its router refuses any other (node-guards.ts).
 */
export type App = FetchHandler & {
  routeTable(): { method: string; path: string }[];
  answerDirectly: NodeFastPath;
  refuseMethod: MethodRefusal;
  /** What the read cache holds and how often it answered (the metrics). */
  readCacheStats(): ReadCacheStats;
  /** What the definition cache holds and how often a definition was in it (the metrics). */
  definitionCacheStats(): DefinitionCacheStats;
};

/** What server/listen.ts passes as `serverContext` (see FetchHandler). */
type NodeServerContext = { req?: IncomingMessage; res?: ServerResponse } | undefined;

const OFF: RateLimitConfig = { perToken: { perSecond: 0, burst: 1 }, anonymous: { perSecond: 0, burst: 1 }, trustProxy: false };

export function createApp(options: AppOptions): App {
  const { db, logger } = options;
  const readCacheBytes = options.readCacheBytes ?? 0;
  const definitions = new DefinitionCache(options.definitionCacheBytes ?? 0);
  const readCache = new ReadCache({
    maxBytes: readCacheBytes,
    dataVersion: readCacheBytes > 0 ? dataVersionOf(db) : async () => "",
    storedText: (name) => definitions.keptText(name),
  });
  // One executor for /graphql and the REST routes: one compilation budget for the process.
  const execute = compilingExecutor();
  const routed = createRouter({
    db,
    logger,
    schema: options.schema,
    routes: options.routes,
    yoga: createGraphQLHandler({
      schema: options.schema,
      logger,
      introspection: options.introspection,
      graphiql: options.graphiql,
      execute,
    }),
    execute,
    tokens: cachedTokenLookup(tokenLookupIn(db), { ttlMs: options.tokenCacheMs ?? 0 }),
    limiter: createRateLimiter(options.rateLimit ?? OFF),
    readCache,
    webhookPolicy: options.webhookPolicy ?? webhookUrlPolicy([]),
    definitions,
    isReady: options.isReady,
    metricsEndpoint: options.metricsEndpoint,
  });
  const cors = createCors(options.corsOrigins ?? []);
  const metrics = options.requestMetrics;

  const pipeline: Middleware[] = [
    accessLog(logger),
    ...(metrics ? [countedInMetrics(metrics)] : []),
    ...(cors ? [corsHeaders(cors)] : []),
    securityHeaders,
    closeAfterRefusedBody,
    requestIdHeader,
    // Cache-Control, ETag and 304, content coding, no body for HEAD.
    representation(),
    errorBoundary(logger),
    ...(cors ? [corsPreflight(cors, routed.allowedMethods)] : []),
  ];
  const handle = compose(pipeline, routed.handle);

  const handler: FetchHandler = (request, serverContext) => {
    const node = serverContext as NodeServerContext;
    const exchange: Exchange = {
      requestId: requestIdFor(request.headers.get("x-request-id")),
      url: new URL(request.url),
      started: performance.now(),
      socketAddress: node?.req?.socket?.remoteAddress,
      // Called without node:http (in-process callers), the request's own signal says it.
      abandonment: node?.res ? () => abandonmentOf(node.res!) : () => request.signal,
    };
    return handle(request, exchange);
  };
  return Object.assign(handler, {
    routeTable: routed.routeTable,
    answerDirectly: healthzFastPath(logger, metrics),
    refuseMethod: routed.refuseMethod,
    readCacheStats: () => readCache.stats(),
    definitionCacheStats: () => definitions.stats(),
  });
}
