// Queries and mutations on /graphql run through src/graphql/compiled-execution.ts, as the REST
// routes' documents do (src/http/rest/executor.ts): a document run often is executed as a function
// compiled for it, others by graphql-js's `execute`. Both replace Yoga's default executor from
// @graphql-tools/executor, which builds each field's resolve info with two closures more
// (getAbortSignal, getAsyncHelpers) and supports @defer, @stream and aborting execution, none of
// which this schema uses (docs/performance.md). Subscriptions keep Yoga's executor. Listed first
// among Yoga's plugins, so any plugin that wraps the executor wraps this one.
import type { execute } from "graphql";
import type { Plugin } from "graphql-yoga";
import { compilingExecutor, type CompilingExecutor } from "../../../graphql/compiled-execution.js";
import type { Context } from "../../../graphql/context.js";

/** `executor`: the process's, shared with the REST routes so that one compilation budget covers both. */
export function useCompiledExecution(executor: CompilingExecutor = compilingExecutor()): Plugin<Context> {
  return {
    onExecute({ setExecuteFn }) {
      setExecuteFn(executor as typeof execute);
    },
  };
}
