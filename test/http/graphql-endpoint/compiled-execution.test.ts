// /graphql runs a document with graphql-js's `execute` until it has run RUNS_BEFORE_COMPILING times
// and as a compiled function (graphql-jit) from then on, within a budget of compilations per
// second; never with Yoga's default executor from @graphql-tools/executor, whose resolve info
// carries getAsyncHelpers. The REST routes' documents run through the same kind of executor. A
// field that reports which executor resolved it (graphql-js's stack passes through its
// executeField) tells them apart.
import { GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from "graphql";
import { createYoga, type Plugin } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { compilingExecutor, RUNS_BEFORE_COMPILING, type CompilingOptions } from "../../../src/graphql/compiled-execution.js";
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

/** Which executor answered each of `times` runs of `query` (its one field's value). */
async function executorsOf(send: (query: string, operationName?: string) => Promise<unknown>, query: string, times: number, operationName?: string) {
  const executors: unknown[] = [];
  for (let run = 0; run < times; run++) {
    const { data } = (await send(query, operationName)) as { data: Record<string, unknown> };
    executors.push(Object.values(data)[0]);
  }
  return executors;
}

describe("useCompiledExecution", () => {
  it("runs a document with graphql-js until it has run often, then compiled, instead of Yoga's default executor", async () => {
    expect(await yogaWith([])("{ executor }")).toEqual({ data: { executor: "graphql-tools" } });
    const executors = await executorsOf(yogaWith([useCompiledExecution() as Plugin]), "{ executor }", RUNS_BEFORE_COMPILING + 2);
    expect(executors).toEqual([...Array<string>(RUNS_BEFORE_COMPILING).fill("graphql-js"), "compiled", "compiled"]);
  });

  it("counts and compiles each operation of a document on its own", async () => {
    const send = yogaWith([useCompiledExecution(compilingExecutor({ runsBeforeCompiling: 1 })) as Plugin]);
    const document = "query A { executor } query B { b: executor }";
    expect(await executorsOf(send, document, 1, "A")).toEqual(["graphql-js"]);
    expect(await executorsOf(send, document, 1, "B")).toEqual(["graphql-js"]);
    expect(await executorsOf(send, document, 1, "A")).toEqual(["compiled"]);
    expect(await executorsOf(send, document, 1, "B")).toEqual(["compiled"]);
  });

  it("answers a resolver's error with the same message, path and code compiled or not", async () => {
    // Only the source locations differ (graphql-jit's errors carry no nodes for Yoga's masking to
    // locate); toolgate's own error mapping (src/graphql/error-codes.ts) never answers them.
    type Answer = { data: unknown; errors: Array<{ message: string; path: unknown; extensions: unknown }> };
    const send = yogaWith([useCompiledExecution(compilingExecutor({ runsBeforeCompiling: 1 })) as Plugin]) as (query: string) => Promise<Answer>;
    const [first, second] = [await send("{ failing executor }"), await send("{ failing executor }")];
    const described = ({ errors }: Answer) => errors.map(({ message, path, extensions }) => ({ message, path, extensions }));
    expect(first.data).toEqual({ failing: null, executor: "graphql-js" });
    expect(second.data).toEqual({ failing: null, executor: "compiled" });
    expect(described(first)).toEqual([{ message: "Unexpected error.", path: ["failing"], extensions: { code: "INTERNAL_SERVER_ERROR" } }]);
    expect(described(second)).toEqual(described(first));
  });
});

describe("compilingExecutor", () => {
  it("compiles at most 10 documents at once, then 2 a second: the others keep running with graphql-js", async () => {
    let clock = 0;
    const options: CompilingOptions = { runsBeforeCompiling: 0, now: () => clock };
    const run = compilingExecutor(options);
    const executorFor = async (index: number) =>
      ((await run({ schema, document: parse(`{ e${index}: executor }`) })) as { data: Record<string, string> }).data[`e${index}`];
    const documents = Array.from({ length: 12 }, (_, index) => index);
    const first = await Promise.all(documents.map(executorFor));
    expect(first).toEqual([...Array<string>(10).fill("compiled"), "graphql-js", "graphql-js"]);
    clock += 499;
    expect(await executorFor(10)).toBe("graphql-js");
    clock += 1;
    expect(await executorFor(10)).toBe("compiled");
    expect(await executorFor(11)).toBe("graphql-js");
  });
});

describe("the REST routes' documents", () => {
  it("run through one compiling executor, as /graphql's do", async () => {
    const prepared = prepareRoutes(buildSchema(), REST_ROUTES);
    expect(prepared).toHaveLength(REST_ROUTES.length);
    expect(new Set(prepared.map((route) => route.execute)).size).toBe(1);
    const document = parse("{ executor }");
    const executors: unknown[] = [];
    for (let run = 0; run <= RUNS_BEFORE_COMPILING; run++)
      executors.push(((await prepared[0]!.execute({ schema, document })) as { data: { executor: string } }).data.executor);
    expect(executors).toEqual([...Array<string>(RUNS_BEFORE_COMPILING).fill("graphql-js"), "compiled"]);
  });
});
