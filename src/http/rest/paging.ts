// The REST lists' pages: `?limit=&cursor=` read into a GraphQL connection's `first` and `after`, and
// the connection's page answered as `{values, nextCursor}`. A request without `limit` gets a page of
// the default size, so no answer grows with the list.
import { z } from "zod";
import { PAGE_SIZE } from "../../graphql/pagination.js";
import type { RestContract } from "./route.js";

export const REST_PAGE_SIZE = {
  /** Items of a page when `limit` is absent: most lists whole (the free plan allows 50 published releases, 20 grants per environment). */
  default: 100,
  /** The largest `limit`: the largest page a GraphQL connection gives. */
  max: PAGE_SIZE.max,
} as const;

export interface PageRequest {
  limit: number;
  cursor: string | null;
}

const POSITIVE_INTEGER = /^[1-9][0-9]*$/;

/** `?limit=` as a page size from 1 to the maximum, `defaultSize` when absent; a problem is added to `problems`. */
export function limitOf(query: URLSearchParams, defaultSize: number, problems: string[]): number {
  const limit = query.get("limit");
  if (limit === null) return defaultSize;
  if (POSITIVE_INTEGER.test(limit) && Number(limit) <= REST_PAGE_SIZE.max) return Number(limit);
  problems.push(`query.limit: "${limit}" is not an integer from 1 to ${REST_PAGE_SIZE.max}`);
  return defaultSize;
}

/** `?limit=&cursor=`: the page a list request asks for (the first, of the default size, without either). */
export function pageRequestOf(query: URLSearchParams, problems: string[]): PageRequest {
  const limit = limitOf(query, REST_PAGE_SIZE.default, problems);
  const cursor = query.get("cursor");
  if (cursor === "") problems.push("query.cursor: must not be empty; pass the nextCursor of the previous page");
  return { limit, cursor: cursor || null };
}

/** The OpenAPI description of `?limit=`: an integer with its bounds and default. */
export const limitParameter = (defaultSize: number): NonNullable<RestContract["query"]>[string] => ({
  schema: z.int().min(1).max(REST_PAGE_SIZE.max).default(defaultSize),
  description: `Page size, 1 to ${REST_PAGE_SIZE.max}; ${defaultSize} when absent.`,
});

/** The OpenAPI description of `?limit=&cursor=`. */
export const PAGE_PARAMETERS: NonNullable<RestContract["query"]> = {
  limit: limitParameter(REST_PAGE_SIZE.default),
  cursor: {
    schema: z.string().regex(/^[A-Za-z0-9_-]+$/),
    description: "The `nextCursor` of the previous page, as it was answered (a value this list did not issue is refused, 400); without it, the first page.",
  },
};

/** How a paged list's operation describes its pages, after what the list holds. */
export const PAGES_DESCRIPTION =
  `a page at a time: ${REST_PAGE_SIZE.default} items unless \`limit\` asks for another number (at most ${REST_PAGE_SIZE.max}). ` +
  "Follow `nextCursor` until it is null to read the whole list.";

/** What a route's document selects of a connection: each node, and whether and where the list goes on. */
export interface ConnectionPage<Node> {
  edges: readonly { node: Node }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** `{values, nextCursor}`: nextCursor asks for the next page, and is null on the last. */
export function pageBody<Node, Value>(
  { edges, pageInfo }: ConnectionPage<Node>,
  toValue: (node: Node) => Value,
): { values: Value[]; nextCursor: string | null } {
  return { values: edges.map((edge) => toValue(edge.node)), nextCursor: pageInfo.hasNextPage ? pageInfo.endCursor : null };
}

/** The `nextCursor` property of a list body's schema. */
export const nextCursorSchema = () =>
  z.string().nullable().describe("Pass it as `cursor` for the next page; null on the last page. Always present, whether or not `limit` was given.");
