// The execution-time cost of an operation, with its variables known: graphql-armor's cost limit
// runs at validation, before variables, so `grants(first: $n)` inside `environments(first: $m)`
// would escape it. Here a connection costs its page size times its selection.
import type { FieldComplexityValue } from "@pothos/plugin-complexity";
import type { GraphQLField } from "graphql";
import { GRAPHQL_LIMITS } from "./armor.js";

/** Page size Pothos uses when a connection gets neither `first` nor `last`. */
export const DEFAULT_PAGE_SIZE = 50;

export function fieldCost<Context>(args: Record<string, unknown>, _ctx: Context, field: GraphQLField<unknown, Context>): FieldComplexityValue {
  if (field.args.some((arg) => arg.name === "first")) {
    const pageSize = typeof args.first === "number" ? args.first : typeof args.last === "number" ? args.last : DEFAULT_PAGE_SIZE;
    return { field: 1, multiplier: Math.max(0, pageSize) };
  }
  if (Array.isArray(args.ids)) return { field: 1, multiplier: args.ids.length };
  // Everything else counts once: a connection's edges and nodes are its page, already counted, and
  // unpaged lists are bounded by plan limits and weighed by the validation-time estimate.
  return { field: 1, multiplier: 1 };
}

export const COMPLEXITY_OPTIONS = {
  fieldComplexity: fieldCost,
  limit: { complexity: GRAPHQL_LIMITS.maxExecutionCost },
};
