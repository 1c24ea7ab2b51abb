// Executes a document that is run again and again as a function compiled for it (graphql-jit)
// instead of walking it with graphql-js's `execute` each time. graphql-js resolves every field
// through the same generic steps (its arguments' dictionary, a resolve info, completing the value
// by its type); the compiled function does only what the document's fields need. The resolvers,
// the schema and the answers are the same: the REST routes' documents and /graphql's run through
// it. A document is compiled on its second execution, so a document sent once costs no
// compilation; the compiled function lives as long as its parsed document (a WeakMap key).
import { execute, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLSchema } from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import { FRESH_PATHS } from "./shared-paths.js";

/** Resolve infos say their paths are not shared (shared-paths.ts). */
const COMPILER_OPTIONS = { resolverInfoEnricher: () => FRESH_PATHS };

/** Executions of a document before it is compiled. */
const RUNS_BEFORE_COMPILING = 1;

type Compiled = { query: CompiledQuery } | { runs: number } | { unsupported: true };

/** An `execute` that compiles the documents it runs more than once, per operation name. */
export function compilingExecutor(): (args: ExecutionArgs) => ReturnType<typeof execute> {
  const compiled = new WeakMap<DocumentNode, Map<string | undefined, Compiled>>();
  return (args) => {
    let byOperation = compiled.get(args.document);
    if (!byOperation) compiled.set(args.document, (byOperation = new Map()));
    const operationName = args.operationName ?? undefined;
    let entry = byOperation.get(operationName) ?? { runs: 0 };
    if ("runs" in entry && entry.runs >= RUNS_BEFORE_COMPILING) entry = compiledEntry(args.schema, args.document, operationName);
    else if ("runs" in entry) entry = { runs: entry.runs + 1 };
    byOperation.set(operationName, entry);
    return "query" in entry ? runCompiled(entry.query, args) : execute(args);
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
