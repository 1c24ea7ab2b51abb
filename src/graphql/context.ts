// The per-request context shared by GraphQL and REST: the database, who is asking, and logging.
import type { Logger } from "pino";
import type { Database } from "../db/client.js";
import { requireActor, type Actor, type Authentication } from "../domain/actor.js";
import { authenticate, type TokenLookup } from "../domain/tokens.js";
import type { WebhookPolicy } from "../domain/webhooks.js";
import { responsePaths, type ResponsePaths } from "./shared-paths.js";
import type { DefinitionCache } from "./stored-definitions.js";

export interface Context {
  db: Database;
  requestId: string;
  logger: Logger;
  authentication: Authentication;
  /** The Authorization header as sent: live subscriptions authenticate with it again while they run. */
  authorization: string | null;
  /** The authenticated account; throws AUTH_UNAUTHORIZED for anonymous or rejected requests. */
  actor(): Actor;
  /**
   * What the executor found about its answer: `keepable` when it ran a query that completed without
   * errors, which the read cache may then keep (src/http/api/read-cache.ts), and the GraphQL
   * operation it ran, for the request metrics. An object, so that every copy of the context (Yoga
   * merges ours into its own) notes into the same place. A resolver that reads what changes without
   * a change event (webhooks' sending state and delivery log), so without moving the data version
   * the cache checks, sets `unversioned`: such an answer is never kept.
   */
  answer: { keepable: boolean; operationName?: string | undefined; unversioned?: boolean };
  /** Which URLs webhooks may be given (the operator's network rules). */
  webhookPolicy: WebhookPolicy;
  /** The stored definition texts the process keeps (shared by every request). */
  definitions: DefinitionCache;
  /** The request's response paths as shared links, for resolvers a compiled document calls (shared-paths.ts). */
  responsePaths: ResponsePaths;
}

export interface ContextDependencies {
  db: Database;
  logger: Logger;
  /** How tokens are found: the database, usually through a short-lived cache. */
  tokens: TokenLookup;
  webhookPolicy: WebhookPolicy;
  definitions: DefinitionCache;
}

export async function createContext(deps: ContextDependencies, request: Request, requestId: string): Promise<Context> {
  const authentication = await authenticate(deps.tokens, request.headers.get("authorization"));
  return {
    db: deps.db,
    requestId,
    logger: deps.logger.child({ requestId }),
    authentication,
    authorization: request.headers.get("authorization"),
    actor: () => requireActor(authentication),
    answer: { keepable: false },
    webhookPolicy: deps.webhookPolicy,
    definitions: deps.definitions,
    responsePaths: responsePaths(),
  };
}
