// Executes a document that is run again and again as a function compiled for it (graphql-jit)
// instead of walking it with graphql-js's `execute` each time. graphql-js resolves every field
// through the same generic steps (its arguments' dictionary, a resolve info, completing the value
// by its type); the compiled function does only what the document's fields need. The resolvers,
// the schema and the answers are the same: the REST routes' documents and /graphql's run through
// it. The compiled function lives as long as its parsed document (a WeakMap key).
//
// Compiling costs more than executing: 2.6 ms for a small document, ~20 ms for one of 14 aliased
// grant views (graphql-js parses and validates that one in 2.3 ms). So only a document that has run
// RUNS_BEFORE_COMPILING times is compiled, and compilations draw on a budget per process: a client
// sending ever new documents gets graphql-js, never a compiler working for it.
import { execute, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import { FRESH_PATHS } from "./shared-paths.js";

/** Executions of a document by graphql-js before it is compiled. */
export const RUNS_BEFORE_COMPILING = 8;
/** Compilations a process starts per second, and at most this many at once (start-up). */
const COMPILATIONS_PER_SECOND = 2;
const COMPILATION_BURST = 10;

/** Resolve infos say their paths are not shared (shared-paths.ts). */
const COMPILER_OPTIONS = { resolverInfoEnricher: () => FRESH_PATHS };

type Compiled = { query: CompiledQuery } | { runs: number } | { unsupported: true };

export interface CompilingOptions {
  runsBeforeCompiling?: number;
  /** Milliseconds since an arbitrary start, for the compilation budget. */
  now?: () => number;
}

export type CompilingExecutor = (args: ExecutionArgs) => ReturnType<typeof execute>;

/** An `execute` that compiles the documents it runs often, per operation name; one per process (its budget is the process's). */
export function compilingExecutor({ runsBeforeCompiling = RUNS_BEFORE_COMPILING, now = () => performance.now() }: CompilingOptions = {}): CompilingExecutor {
  const compiled = new WeakMap<DocumentNode, Map<string | undefined, Compiled>>();
  const budget = compilationBudget(now);
  return (args) => {
    let byOperation = compiled.get(args.document);
    if (!byOperation) compiled.set(args.document, (byOperation = new Map()));
    const operationName = args.operationName ?? undefined;
    let entry = byOperation.get(operationName) ?? { runs: 0 };
    if ("runs" in entry) {
      entry = entry.runs >= runsBeforeCompiling && budget() ? compiledEntry(args.schema, args.document, operationName) : { runs: entry.runs + 1 };
      byOperation.set(operationName, entry);
    }
    return "query" in entry ? runCompiled(entry.query, args) : execute(args);
  };
}

/** A token bucket: whether a compilation may start now. */
function compilationBudget(now: () => number): () => boolean {
  let tokens = COMPILATION_BURST;
  let at = now();
  return () => {
    const time = now();
    tokens = Math.min(COMPILATION_BURST, tokens + ((time - at) / 1000) * COMPILATIONS_PER_SECOND);
    at = time;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

function runCompiled(query: CompiledQuery, args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> {
  const result = query.query(args.rootValue, args.contextValue, args.variableValues ?? {}) as ExecutionResult | Promise<ExecutionResult>;
  // Variables that do not coerce are refused before anything runs, with graphql-jit's wording; the
  // request is answered by graphql-js instead, so that its problems read the same compiled or not.
  if (!(result instanceof Promise) && !("data" in result)) return execute(args);
  return result;
}

function compiledEntry(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): Compiled {
  const result = compileQuery(schema, document, operationName, COMPILER_OPTIONS);
  // A document graphql-jit refuses is one graphql-js answers with its own errors.
  return isCompiledQuery(result) ? { query: result } : { unsupported: true };
}
