// /graphql executes queries with graphql-js's `execute` (the REST routes' executor), not Yoga's
// default from @graphql-tools/executor, whose resolve info carries getAsyncHelpers: a field that
// reports which one resolved it tells them apart.
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from "graphql";
import { createYoga, type Plugin } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { useGraphQLJsExecution } from "../../../src/http/graphql-endpoint/plugins/graphql-js-execution.js";

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: "Query",
    fields: {
      executor: { type: GraphQLString, resolve: (_root, _args, _context, info) => ("getAsyncHelpers" in info ? "graphql-tools" : "graphql-js") },
    },
  }),
});

async function executorWith(plugins: Plugin[]): Promise<unknown> {
  const yoga = createYoga({ schema, plugins, logging: false, fetchAPI: { Request, Response } });
  const response = await yoga.fetch("http://toolgate/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ executor }" }),
  });
  return ((await response.json()) as { data: { executor: string } }).data.executor;
}

describe("useGraphQLJsExecution", () => {
  it("has Yoga execute queries with graphql-js instead of its default executor", async () => {
    expect(await executorWith([])).toBe("graphql-tools");
    expect(await executorWith([useGraphQLJsExecution() as Plugin])).toBe("graphql-js");
  });
});
