// The execution-time cost of an operation, with its variables known: graphql-armor's cost limit
// runs at validation, before variables, so `grants(first: $n)` inside `environments(first: $m)`
// would escape it. Here a connection, or a capped list, costs its page size times its selection.
import type { FieldComplexityValue } from "@pothos/plugin-complexity";
import type { GraphQLField } from "graphql";
import { GRAPHQL_LIMITS } from "./armor.js";
import { PAGE_SIZE } from "./pagination.js";

function fieldCost<Context>(args: Record<string, unknown>, _ctx: Context, field: GraphQLField<unknown, Context>): FieldComplexityValue {
  const first = field.args.find((arg) => arg.name === "first");
  if (first) {
    // With both, the page is read over the larger (hasPreviousPage counts up to `last` items).
    const sizes = [args.first, args.last].filter((size) => typeof size === "number");
    // Without either: a capped list's default (its cap), or a connection's default page.
    const unsized = typeof first.defaultValue === "number" ? first.defaultValue : PAGE_SIZE.default;
    const pageSize = sizes.length > 0 ? Math.max(...sizes) : unsized;
    return { field: 1, multiplier: Math.max(0, pageSize) };
  }
  if (Array.isArray(args.ids)) return { field: 1, multiplier: args.ids.length };
  // Everything else counts once: a connection's edges and nodes are its page, already counted; the
  // other lists are bounded by the request (mutation results) or by the definition's size limit.
  return { field: 1, multiplier: 1 };
}

export const COMPLEXITY_OPTIONS = {
  fieldComplexity: fieldCost,
  limit: { complexity: GRAPHQL_LIMITS.maxExecutionCost },
};
