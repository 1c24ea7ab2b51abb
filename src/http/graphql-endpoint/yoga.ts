// GraphQL over HTTP at /graphql: Yoga with the shared context, error masking, GraphiQL, automatic
// persisted queries, the GraphQL-over-HTTP spec's statuses (graphql-status.ts) and the endpoint's
// hardening (query limits, introspection switch, no batching, every refusal in the spec's JSON error
// shape). Queries may be sent with GET, mutations only with POST (Yoga answers 405 otherwise). There
// is no CSRF header check: toolgate authenticates with bearer headers only, never cookies, so a
// cross-site page cannot make a browser send an authenticated request. The body size cap is
// applied before Yoga, in app.ts.
import { createYoga, type YogaServerInstance } from "graphql-yoga";
import { GraphQLError, type GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import { DomainError } from "../../domain/errors.js";
import { graphqlArmorPlugins } from "../../graphql/armor.js";
import type { Context } from "../../graphql/context.js";
import { graphQLErrorFor, maskError, type ErrorExtensions } from "../../graphql/error-codes.js";
import { lazyGraphiQLPage, type GraphiQLPageOptions } from "../pages/graphiql.js";
import { TextKeepingResponse } from "../byte-body.js";
import type { CompilingExecutor } from "../../graphql/compiled-execution.js";
import { boundedParserCaches } from "./document-cache.js";
import { useAnswerableNote } from "./plugins/answerable-note.js";
import { useCompiledExecution } from "./plugins/compiled-execution.js";
import { useGraphQLOverHttpStatuses } from "./plugins/graphql-status.js";
import { useHttpStatusInErrorBodies } from "./plugins/http-status-in-error-bodies.js";
import { useInvalidDocumentsAsRequestInvalid } from "./plugins/invalid-documents.js";
import { useMalformedRequestsAsRequestInvalid } from "./plugins/malformed-requests.js";
import { useOperationNameNote } from "./plugins/operation-name-note.js";
import { usePersistedQueries } from "./plugins/persisted-queries.js";
import { useBodyReadOnce, type BodyServerContext } from "./plugins/read-body-once.js";
import { useNegotiatedResponseMediaType } from "./plugins/response-media-type.js";
import { useSharedSubscriptionExecution } from "./plugins/shared-subscription-execution.js";
import { useUnexpectedErrorsLogged } from "./plugins/unexpected-errors.js";
import { useDisabledIntrospection, useListArgumentLimit } from "./plugins/validation-rules.js";

export interface RequestServerContext extends BodyServerContext {
  requestId: string;
  createContext(request: Request): Promise<Context>;
}

export interface YogaOptions {
  schema: GraphQLSchema;
  logger: Logger;
  introspection: boolean;
  graphiql?: GraphiQLPageOptions | undefined;
  /** Runs queries and mutations (the process's, shared with the REST routes); a new one when omitted. */
  execute?: CompilingExecutor | undefined;
}

export function createGraphQLHandler(options: YogaOptions): YogaServerInstance<RequestServerContext, Context> {
  const graphiqlPage = lazyGraphiQLPage(options.graphiql ?? {});
  return createYoga<RequestServerContext, Context>({
    schema: options.schema,
    graphqlEndpoint: "/graphql",
    // Node's own classes, streams included: an event stream made with another implementation's
    // ReadableStream is wrapped by undici's Response in a stream that throws, uncaught, when the
    // client goes away mid-stream (abandoned-streams.ts cancels it then). Answers made of text keep
    // their bytes in hand (byte-body.ts).
    fetchAPI: { Request, Response: TextKeepingResponse, ReadableStream, TextEncoder, TransformStream },
    landingPage: false,
    logging: false,
    // CORS is app.ts's (src/http/pipeline/cors.ts), the same for /graphql and /v1.
    cors: false,
    batching: false,
    parserAndValidationCache: boundedParserCaches(),
    // Nothing in the schema takes a file.
    multipart: false,
    // app.ts has already read the body within REQUEST_BODY_LIMIT_BYTES (413 over it); read-body-once.ts.
    maxRequestBodySize: false,
    context: ({ request, createContext }) => createContext(request),
    maskedErrors: {
      maskError: (error) => methodNotAllowed(error) ?? maskError(error, (original) => options.logger.error({ err: original }, "unexpected GraphQL error")),
    },
    plugins: [
      useCompiledExecution(options.execute),
      // Before the plugins that wrap the request parser, so they wrap this one.
      useBodyReadOnce(),
      useGraphQLOverHttpStatuses(),
      useMalformedRequestsAsRequestInvalid(),
      usePersistedQueries(),
      useNegotiatedResponseMediaType(),
      ...graphqlArmorPlugins({ introspection: options.introspection }),
      useListArgumentLimit(),
      ...(options.introspection ? [] : [useDisabledIntrospection()]),
      useInvalidDocumentsAsRequestInvalid(),
      useHttpStatusInErrorBodies(),
      useOperationNameNote(),
      useAnswerableNote(),
      useUnexpectedErrorsLogged(),
      useSharedSubscriptionExecution(),
    ],
    // The page is rendered once (graphiql.ts); Yoga asks for it on every GET that accepts text/html.
    renderGraphiQL: graphiqlPage,
  });
}

/**
 * Yoga refuses a mutation sent with GET with a bare 405 error (`allow: POST`); here it is
 * METHOD_NOT_ALLOWED from the error table, as app.ts answers other methods. The spec's MUST: 405.
 */
function methodNotAllowed(error: unknown): GraphQLError | undefined {
  if (!(error instanceof GraphQLError)) return undefined;
  const http = error.extensions.http as { status?: number; headers?: Record<string, string> } | undefined;
  if (http?.status !== 405) return undefined;
  const refusal = graphQLErrorFor(new DomainError("METHOD_NOT_ALLOWED", error.message));
  (refusal.extensions as unknown as ErrorExtensions).http.headers = { allow: "POST" };
  return refusal;
}
