// The execution-time cost of an operation, with its variables known: graphql-armor's cost limit
// runs at validation, before variables, so `grants(first: $n)` inside `environments(first: $m)`
// would escape it. Here a connection costs its page size times its selection.
import type { FieldComplexityValue } from "@pothos/plugin-complexity";
import type { GraphQLField } from "graphql";
import { GRAPHQL_LIMITS } from "./armor.js";
import { PAGE_SIZE } from "./pagination.js";

/**
 * Lists read from the database without paging, weighed as the items they may hold: a page of the
 * largest size (500), which is also the team plan's limit of active grants per environment. An
 * account's toolReleaseList may be longer (5,000 published releases on the team plan, plus the
 * superseded ones); it weighs 500 too, so the REST list of releases (service.md operation 7), which
 * must return the whole list, fits the budget (~10,000 of 50,000).
 */
export const UNPAGED_LIST_WEIGHTS: Readonly<Record<string, number>> = {
  activeGrants: 500,
  toolReleaseList: 500,
};

export function fieldCost<Context>(args: Record<string, unknown>, _ctx: Context, field: GraphQLField<unknown, Context>): FieldComplexityValue {
  if (field.args.some((arg) => arg.name === "first")) {
    // With both, the page is read over the larger (hasPreviousPage counts up to `last` items).
    const sizes = [args.first, args.last].filter((size) => typeof size === "number");
    const pageSize = sizes.length > 0 ? Math.max(...sizes) : PAGE_SIZE.default;
    return { field: 1, multiplier: Math.max(0, pageSize) };
  }
  if (Array.isArray(args.ids)) return { field: 1, multiplier: args.ids.length };
  const listWeight = UNPAGED_LIST_WEIGHTS[field.name];
  if (listWeight !== undefined) return { field: 1, multiplier: listWeight };
  // Everything else counts once: a connection's edges and nodes are its page, already counted; the
  // other lists are bounded by the request (mutation results) or by the definition's size limit.
  return { field: 1, multiplier: 1 };
}

export const COMPLEXITY_OPTIONS = {
  fieldComplexity: fieldCost,
  limit: { complexity: GRAPHQL_LIMITS.maxExecutionCost },
};
