// Queries and mutations on /graphql are executed by graphql-js's `execute`, as the REST routes'
// documents are (src/http/rest/executor.ts), instead of Yoga's default executor from
// @graphql-tools/executor. That one builds each field's resolve info with two closures more
// (getAbortSignal, getAsyncHelpers) and supports @defer, @stream and aborting execution, none of
// which this schema uses; graphql-js resolves the nested read of 50 grants with 5–11 % less CPU
// (docs/performance.md). Subscriptions keep Yoga's executor. Listed first among Yoga's plugins, so
// any plugin that wraps the executor wraps this one.
import { execute } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Context } from "../../../graphql/context.js";

export function useGraphQLJsExecution(): Plugin<Context> {
  return {
    onExecute({ setExecuteFn }) {
      setExecuteFn(execute);
    },
  };
}
