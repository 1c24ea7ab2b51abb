// GraphQL over HTTP at /graphql: Yoga with the shared context, error masking and GraphiQL.
import { createYoga, type YogaServerInstance } from "graphql-yoga";
import type { GraphQLSchema } from "graphql";
import type { Logger } from "pino";
import type { Context } from "../graphql/context.js";
import { maskError } from "../graphql/error-codes.js";
import { GRAPHIQL_DEFAULT_QUERY } from "./graphiql.js";

export interface RequestServerContext {
  requestId: string;
  createContext(request: Request): Promise<Context>;
}

export interface YogaOptions {
  schema: GraphQLSchema;
  logger: Logger;
  introspection: boolean;
  /** Token GraphiQL pre-fills in demo mode. */
  graphiqlToken?: string | undefined;
}

export function createGraphQLHandler(options: YogaOptions): YogaServerInstance<RequestServerContext, Context> {
  return createYoga<RequestServerContext, Context>({
    schema: options.schema,
    graphqlEndpoint: "/graphql",
    fetchAPI: { Request, Response },
    landingPage: false,
    logging: false,
    context: ({ request, createContext }) => createContext(request),
    maskedErrors: {
      maskError: (error) => maskError(error, (original) => options.logger.error({ err: original }, "unexpected GraphQL error")),
    },
    graphiql: {
      title: "toolgate",
      defaultQuery: GRAPHIQL_DEFAULT_QUERY,
      headers: options.graphiqlToken ? JSON.stringify({ Authorization: `Bearer ${options.graphiqlToken}` }) : undefined,
      shouldPersistHeaders: true,
    },
  });
}
