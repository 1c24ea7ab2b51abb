// The front of the two authenticated surfaces, /graphql and /v1: the request's context (its token
// authenticated once), the rate limit charged once, then the read cache around the surface's handler.
// A refusal or a failure here is rendered in the surface's own error shape.
import type { Logger } from "pino";
import type { Database } from "../../db/client.js";
import { DomainError } from "../../domain/errors.js";
import type { TokenLookup } from "../../domain/tokens.js";
import type { WebhookPolicy } from "../../domain/webhooks.js";
import { createContext, type Context } from "../../graphql/context.js";
import { graphQLErrorFor, maskError } from "../../graphql/error-codes.js";
import type { DefinitionCache } from "../../graphql/stored-definitions.js";
import type { errorResponse } from "../errors.js";
import type { Exchange } from "../pipeline/middleware.js";
import type { RateLimiter } from "./rate-limit.js";
import type { ReadCache } from "./read-cache.js";

export interface ApiFrontOptions {
  db: Database;
  logger: Logger;
  tokens: TokenLookup;
  limiter: RateLimiter;
  readCache: ReadCache;
  webhookPolicy: WebhookPolicy;
  definitions: DefinitionCache;
}

/** A surface's handler: the request, its context, and its body as text when the read cache keys on it. */
export type SurfaceHandler = (request: Request, context: Context, body: string | undefined) => Promise<Response>;
export type SurfaceRefusal = typeof errorResponse;
export type RoutedHandler = (request: Request, exchange: Exchange) => Promise<Response>;

export function apiFront({ db, logger, tokens, limiter, readCache, webhookPolicy, definitions }: ApiFrontOptions) {
  /** `bodyOf` gives the request body the read cache keys on (none for REST: bodies belong to writes). */
  return (handle: SurfaceHandler, refuse: SurfaceRefusal, bodyOf: (request: Request) => Promise<string | undefined> = async () => undefined): RoutedHandler =>
    async (request, exchange) => {
      try {
        const context = await createContext({ db, logger, tokens, webhookPolicy, definitions }, request, exchange.requestId);
        const verdict = limiter.take(context.authentication, request, exchange.socketAddress);
        if (!verdict.allowed) {
          const wait = String(verdict.retryAfterSeconds);
          return refuse(graphQLErrorFor(new DomainError("RATE_LIMITED", `too many requests; retry after ${wait} s`)), { "retry-after": wait });
        }
        const body = await bodyOf(request);
        const response = await readCache.answer(request, context, body, () => handle(request, context, body));
        exchange.operationName = context.answer.operationName;
        return response;
      } catch (error) {
        // E.g. the database failing while the token is authenticated: 503 in the surface's shape.
        return refuse(maskError(error, (original) => logger.error({ err: original, requestId: exchange.requestId }, "unexpected error")));
      }
    };
}
