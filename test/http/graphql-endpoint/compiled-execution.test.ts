// /graphql runs a document with graphql-js's `execute` the first time and as a compiled function
// (graphql-jit) from then on, never with Yoga's default executor from @graphql-tools/executor, whose
// resolve info carries getAsyncHelpers; the REST routes' documents run through the same kind of
// executor. A field that reports which executor resolved it (graphql-js's stack passes through its
// executeField) tells them apart.
import { GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from "graphql";
import { createYoga, type Plugin } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { buildSchema } from "../../../src/graphql/schema.js";
import { useCompiledExecution } from "../../../src/http/graphql-endpoint/plugins/compiled-execution.js";
import { prepareRoutes } from "../../../src/http/rest/executor.js";
import { REST_ROUTES } from "../../../src/http/rest/routes.js";

function executorOf(info: object): string {
  if ("getAsyncHelpers" in info) return "graphql-tools";
  return new Error().stack?.includes("executeField") ? "graphql-js" : "compiled";
}

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: "Query",
    fields: {
      executor: { type: GraphQLString, resolve: (_root, _args, _context, info) => executorOf(info) },
      failing: {
        type: GraphQLString,
        resolve: () => {
          throw new Error("refused");
        },
      },
    },
  }),
});

function yogaWith(plugins: Plugin[]) {
  const yoga = createYoga({ schema, plugins, logging: false, fetchAPI: { Request, Response } });
  return async (query: string, operationName?: string): Promise<unknown> => {
    const response = await yoga.fetch("http://toolgate/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, operationName }),
    });
    return response.json();
  };
}

describe("useCompiledExecution", () => {
  it("runs a document with graphql-js once, then compiled, instead of Yoga's default executor", async () => {
    expect(await yogaWith([])("{ executor }")).toEqual({ data: { executor: "graphql-tools" } });
    const send = yogaWith([useCompiledExecution() as Plugin]);
    expect(await send("{ executor }")).toEqual({ data: { executor: "graphql-js" } });
    expect(await send("{ executor }")).toEqual({ data: { executor: "compiled" } });
    expect(await send("{ executor }")).toEqual({ data: { executor: "compiled" } });
  });

  it("compiles each operation of a document on its own second run", async () => {
    const send = yogaWith([useCompiledExecution() as Plugin]);
    const document = "query A { executor } query B { b: executor }";
    expect(await send(document, "A")).toEqual({ data: { executor: "graphql-js" } });
    expect(await send(document, "B")).toEqual({ data: { b: "graphql-js" } });
    expect(await send(document, "A")).toEqual({ data: { executor: "compiled" } });
    expect(await send(document, "B")).toEqual({ data: { b: "compiled" } });
  });

  it("answers a resolver's error with the same message, path and code compiled or not", async () => {
    // Only the source locations differ (graphql-jit's errors carry no nodes for Yoga's masking to
    // locate); toolgate's own error mapping (src/graphql/error-codes.ts) never answers them.
    type Answer = { data: unknown; errors: Array<{ message: string; path: unknown; extensions: unknown }> };
    const send = yogaWith([useCompiledExecution() as Plugin]) as (query: string) => Promise<Answer>;
    const [first, second] = [await send("{ failing executor }"), await send("{ failing executor }")];
    const described = ({ errors }: Answer) => errors.map(({ message, path, extensions }) => ({ message, path, extensions }));
    expect(first.data).toEqual({ failing: null, executor: "graphql-js" });
    expect(second.data).toEqual({ failing: null, executor: "compiled" });
    expect(described(first)).toEqual([{ message: "Unexpected error.", path: ["failing"], extensions: { code: "INTERNAL_SERVER_ERROR" } }]);
    expect(described(second)).toEqual(described(first));
  });
});

describe("the REST routes' documents", () => {
  it("run through one compiling executor, as /graphql's do", async () => {
    const prepared = prepareRoutes(buildSchema(), REST_ROUTES);
    expect(prepared).toHaveLength(REST_ROUTES.length);
    expect(new Set(prepared.map((route) => route.execute)).size).toBe(1);
    // That executor compiles a document on its second run.
    const document = parse("{ executor }");
    const run = async () => ((await prepared[0]!.execute({ schema, document })) as { data: unknown }).data;
    expect(await run()).toEqual({ executor: "graphql-js" });
    expect(await run()).toEqual({ executor: "compiled" });
  });
});
