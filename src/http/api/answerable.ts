// Whether what an executor ran may be kept by the read cache (read-cache.ts): a query, not
// delivered in parts, whose result has no errors. The REST executor and a Yoga plugin call
// `noteAnswerable` with what they executed; the note goes into the request's context.
import { getOperationAST, Kind, visit, type DocumentNode, type ExecutionArgs } from "graphql";
import type { Context } from "../../graphql/context.js";

/** Notes in the request's context whether what was executed may be kept. */
export function noteAnswerable(args: ExecutionArgs, result: unknown): void {
  const context = args.contextValue as Context | undefined;
  if (context?.answer) context.answer.keepable = !context.answer.unversioned && isQuery(args) && isCompleteResult(result);
}

const incrementalDocuments = new WeakMap<DocumentNode, boolean>();

function isQuery(args: ExecutionArgs): boolean {
  let incremental = incrementalDocuments.get(args.document);
  if (incremental === undefined) {
    incremental = hasIncrementalDelivery(args.document);
    incrementalDocuments.set(args.document, incremental);
  }
  return !incremental && getOperationAST(args.document, args.operationName)?.operation === "query";
}

/** @defer and @stream results arrive in parts. */
function hasIncrementalDelivery(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.DIRECTIVE]: (directive) => {
      if (directive.name.value === "defer" || directive.name.value === "stream") found = true;
    },
  });
  return found;
}

function isCompleteResult(result: unknown): boolean {
  if (typeof result !== "object" || result === null || Symbol.asyncIterator in result) return false;
  const { errors, data } = result as { errors?: readonly unknown[]; data?: unknown };
  return (errors === undefined || errors.length === 0) && data !== null && data !== undefined;
}
