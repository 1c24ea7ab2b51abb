// GraphQL over HTTP at /graphql: Yoga with the shared context, error masking, GraphiQL, automatic
// persisted queries, the GraphQL-over-HTTP spec's statuses (graphql-status.ts) and the endpoint's
// hardening (query limits, introspection switch, no batching, every refusal in the spec's JSON error
// shape). Queries may be sent with GET, mutations only with POST (Yoga answers 405 otherwise). There
// is no CSRF header check: toolgate authenticates with bearer headers only, never cookies, so a
// cross-site page cannot make a browser send an authenticated request. The body size cap is
// applied before Yoga, in app.ts.
import { createYoga, type Plugin, type YogaServerInstance } from "graphql-yoga";
import { noteAnswerable } from "./answerable.js";
import { getOperationAST, GraphQLError, NoSchemaIntrospectionCustomRule, type GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import { DomainError, invalidRequest } from "../domain/errors.js";
import { graphqlArmorPlugins } from "../graphql/armor.js";
import type { Context } from "../graphql/context.js";
import { ListArgumentLimitRule } from "../graphql/list-limits.js";
import { graphQLErrorFor, HTTP_STATUS_BY_CODE, maskError, requestErrorFor, type ErrorExtensions } from "../graphql/error-codes.js";
import { boundedParserCaches } from "./document-cache.js";
import { lazyGraphiQLPage, type StarterVariables } from "./graphiql.js";
import { useGraphQLOverHttpStatuses } from "./graphql-status.js";
import { jsonDepthExceeds, tooDeep } from "./json-depth.js";
import { usePersistedQueries } from "./persisted-queries.js";
import { useBodyReadOnce, type BodyServerContext } from "./read-body-once.js";
import { noteOperationName } from "./request-scope.js";
import { useNegotiatedResponseMediaType } from "./response-media-type.js";

export interface RequestServerContext extends BodyServerContext {
  requestId: string;
  createContext(request: Request): Promise<Context>;
}

export interface YogaOptions {
  schema: GraphQLSchema;
  logger: Logger;
  introspection: boolean;
  /** Token GraphiQL pre-fills in demo mode. */
  graphiqlToken?: string | undefined;
  /** Variables GraphiQL pre-fills in demo mode: ids from the demo data. */
  graphiqlVariables?: StarterVariables | undefined;
}

export function createGraphQLHandler(options: YogaOptions): YogaServerInstance<RequestServerContext, Context> {
  const graphiqlPage = lazyGraphiQLPage({ token: options.graphiqlToken, variables: options.graphiqlVariables });
  return createYoga<RequestServerContext, Context>({
    schema: options.schema,
    graphqlEndpoint: "/graphql",
    // Node's own classes, streams included: an event stream made with another implementation's
    // ReadableStream is wrapped by undici's Response in a stream that throws, uncaught, when the
    // client goes away mid-stream (abandoned-streams.ts cancels it then).
    fetchAPI: { Request, Response, ReadableStream, TextEncoder, TransformStream },
    landingPage: false,
    logging: false,
    // CORS is app.ts's (src/http/cors.ts), the same for /graphql and /v1.
    cors: false,
    batching: false,
    parserAndValidationCache: boundedParserCaches(),
    // Nothing in the schema takes a file.
    multipart: false,
    // app.ts has already read the body within REQUEST_BODY_LIMIT_BYTES (413 over it); read-body-once.ts.
    maxRequestBodySize: false,
    context: ({ request, createContext }) => createContext(request),
    maskedErrors: {
      maskError: (error) =>
        methodNotAllowed(error) ?? maskError(error, (original) => options.logger.error({ err: original }, "unexpected GraphQL error")),
    },
    plugins: [
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
    ],
    // The page is rendered once (graphiql.ts); Yoga asks for it on every GET that accepts text/html.
    renderGraphiQL: graphiqlPage,
  });
}

/**
 * Yoga turns `extensions.http` into the response's status and headers and drops it from the body;
 * toolgate keeps `extensions.http.status` in the body too, so a client reading one error of a
 * partial result knows its status without looking at the response.
 */
function useHttpStatusInErrorBodies(): Plugin {
  return {
    onResultProcess({ result }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || !result.errors?.length) return;
      const errors = result.errors.map((error) => withoutYogaFlags(error instanceof GraphQLError ? error.toJSON() : error));
      result.stringify = () => JSON.stringify({ ...result, errors });
    },
  };
}

/** The executed operation's name, for the request metrics (request-scope.ts); "" when it has none. */
function useOperationNameNote(): Plugin {
  return {
    onExecute({ args }) {
      noteOperationName(getOperationAST(args.document, args.operationName)?.name?.value);
    },
  };
}

/** Tells the answer cache whether what was executed may be kept (answer-cache.ts), as the REST executor does. */
function useAnswerableNote(): Plugin {
  return {
    onExecute({ args }) {
      return {
        onExecuteDone({ result }) {
          noteAnswerable(args, result);
        },
      };
    },
  };
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

/** Yoga marks the errors it raises `extensions.http.spec` (its own status switch); the body keeps only what clients use. */
function withoutYogaFlags<T extends { extensions?: Record<string, unknown> | undefined }>(error: T): T {
  const http = error.extensions?.http as Record<string, unknown> | undefined;
  if (!http || !("spec" in http)) return error;
  const { spec: _spec, ...rest } = http;
  return { ...error, extensions: { ...error.extensions, http: rest } };
}

/** The query-string parameters GraphQL over GET carries as JSON. */
const JSON_SEARCH_PARAMS = ["variables", "extensions"] as const;

/**
 * A content type Yoga cannot parse gets 415 UNSUPPORTED_MEDIA_TYPE with a JSON body (Yoga sends an
 * empty one), and a parse failure Yoga does not expect (malformed JSON in `?variables=` throws a bare
 * SyntaxError, which error masking would call a 500) is 400 REQUEST_INVALID naming the parameter,
 * as is JSON nested too deep to walk safely (json-depth.ts).
 */
function useMalformedRequestsAsRequestInvalid(): Plugin {
  return {
    onRequestParse({ request, url, requestParser, setRequestParser }) {
      if (!requestParser) {
        const contentType = request.headers.get("content-type") ?? "none";
        throw new DomainError("UNSUPPORTED_MEDIA_TYPE", `content-type ${contentType} is not supported; send application/json`);
      }
      const problems = request.method === "GET" ? JSON_SEARCH_PARAMS.flatMap((name) => jsonProblem(name, url.searchParams.get(name))) : [];
      if (problems.length > 0) throw invalidRequest(problems);
      setRequestParser(async (parsed) => {
        let params: Awaited<ReturnType<typeof requestParser>>;
        try {
          params = await requestParser(parsed);
        } catch (error) {
          if (error instanceof GraphQLError) throw error;
          throw invalidRequest([`request: ${error instanceof Error ? error.message : String(error)}`]);
        }
        if (jsonDepthExceeds(params)) throw invalidRequest([tooDeep("request")]);
        return params;
      });
    },
  };
}

function jsonProblem(name: string, value: string | null): string[] {
  if (value === null || value === "") return [];
  try {
    JSON.parse(value);
    return [];
  } catch (error) {
    return [`query.${name}: malformed JSON (${(error as Error).message})`];
  }
}

/** Literal lists over GRAPHQL_LIMITS.maxListArgumentItems are validation errors (list-limits.ts). */
function useListArgumentLimit(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(ListArgumentLimitRule);
    },
  };
}

/** Without introspection, `__schema` and `__type` are validation errors (`__typename` stays). */
function useDisabledIntrospection(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}

/**
 * Documents that fail validation (unknown fields, exceeded limits, disabled introspection) carry
 * REQUEST_INVALID (status 400 in the body) like syntax errors do. The response's status is decided
 * by graphql-status.ts: 400 for `application/graphql-response+json`, 200 for `application/json`.
 */
function useInvalidDocumentsAsRequestInvalid(): Plugin {
  return {
    onValidate() {
      return ({ valid, result, setResult }) => {
        if (!valid) setResult(result.map(asRequestInvalid));
      };
    },
  };
}

function asRequestInvalid(thrown: Error): GraphQLError {
  const error = thrown instanceof GraphQLError ? thrown : new GraphQLError(thrown.message);
  const code = error.extensions.code;
  const coded = typeof code === "string" && code in HTTP_STATUS_BY_CODE ? error : requestErrorFor([error]);
  return new GraphQLError(coded.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: coded.extensions });
}
