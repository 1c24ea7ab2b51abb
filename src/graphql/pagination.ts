// Relay cursor connections (https://relay.dev/graphql/connections.htm) over Prisma lists: the spec's
// algorithm for every combination of `first`, `last`, `after` and `before`, in one query per page.
// Pothos's own connection helpers refuse `first` with `before`, `last` with `after` and `after` with
// `before`, answer `first` with `last` as a different slice, and lose the place after a cursor whose
// item left the list; every connection of the graph pages here instead (docs/graphql.md, "Paging
// through lists", states the rules).
import { queryFromInfo, type SelectionMap } from "@pothos/plugin-prisma";
import type { GraphQLResolveInfo } from "graphql";
import { DomainError, invalidRequest } from "../domain/errors.js";
import { ListOrder, type Position, type PrismaMap } from "./list-cursors.js";
import { onSharedPath } from "./shared-paths.js";

export const PAGE_SIZE = {
  /** Items of a page when neither `first` nor `last` is given: the page is `first: 50`. */
  default: 50,
  /** Larger `first` and `last` count as this. */
  max: 500,
} as const;

export interface ConnectionArguments {
  first?: number | null | undefined;
  last?: number | null | undefined;
  after?: string | null | undefined;
  before?: string | null | undefined;
}

export interface Connection<Node> {
  edges: { cursor: string; node: Node }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/** The answer of a connection its reader may not see into: no page, no cursors. */
export const EMPTY_CONNECTION: Connection<never> = {
  edges: [],
  pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
};

/** Where a connection's nodes sit in its selection: under `nodes` and under `edges.node`. */
const NODE_PATHS = [[{ name: "nodes" }], [{ name: "edges" }, { name: "node" }]];

/** The page the arguments ask for, and the rows that answer it. */
interface PagePlan {
  after?: Position | undefined;
  before?: Position | undefined;
  first?: number | undefined;
  last?: number | undefined;
  /** `last` without `first`: the rows are read from the end of the range between the cursors. */
  fromEnd: boolean;
  /** Prisma's `take`: negative from the end. */
  take: number;
}

function pageSize(argument: "first" | "last", value: number | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (value < 0) throw invalidRequest([`${argument} must not be negative (got ${value})`]);
  return Math.min(value, PAGE_SIZE.max);
}

/**
 * A list in one order, paged the Relay way. The range is the items strictly between the positions
 * of `after` and `before`; `first` takes the start of it (50 when neither `first` nor `last` is
 * given), then `last` the end of what remains. One query reads the range's rows from the end the page
 * is on: as many as the page and one more (does the range go on?), and the cursors' own items,
 * included by the keyset bounds, which say whether those items are still in the list.
 */
export class PagedList<Node extends object> {
  private readonly order: ListOrder;

  constructor(model: string, orderBy: readonly PrismaMap[]) {
    this.order = new ListOrder(model, orderBy);
  }

  /** The findMany arguments of the page: `where` within the cursors, the order, and how many rows. */
  pageQuery(args: ConnectionArguments, where: PrismaMap): { where: PrismaMap; orderBy: PrismaMap[]; take: number } {
    const plan = this.plan(args);
    const bounds = [plan.after && this.order.atOrAfter(plan.after), plan.before && this.order.atOrBefore(plan.before)].filter((bound) => !!bound);
    return { where: bounds.length > 0 ? { AND: [where, ...bounds] } : where, orderBy: [...this.order.orderBy], take: plan.take };
  }

  /** The connection of the rows `pageQuery(args)` read. */
  connection(rows: readonly Node[], args: ConnectionArguments): Connection<Node> {
    return this.connectionOf(rows, this.plan(args));
  }

  /** The resolver of a connection over a relation: the page `relationSelection` loaded onto the parent row. */
  relationConnection(parent: object, relation: string, args: ConnectionArguments): Connection<Node> {
    const plan = this.plan(args);
    const rows = (parent as Record<string, unknown>)[relation];
    if (!Array.isArray(rows)) throw new Error(`the ${relation} page was not loaded with its parent row`);
    return this.connectionOf(rows as Node[], plan);
  }

  private connectionOf(rows: readonly Node[], plan: PagePlan): Connection<Node> {
    const items = rows.map((node) => ({ node, position: this.order.positionOf(node as Record<string, unknown>) }));
    const at = (position: Position | undefined) => (item: (typeof items)[number]) => position !== undefined && this.order.samePosition(item.position, position);
    const afterInList = items.some(at(plan.after));
    const beforeInList = items.some(at(plan.before));
    // Strictly between the cursors: the start of the range, or its end when read from the end.
    const between = items.filter((item) => !at(plan.after)(item) && !at(plan.before)(item));
    let page = plan.fromEnd ? between : between.slice(0, plan.first ?? PAGE_SIZE.default);
    if (plan.last !== undefined) page = page.slice(Math.max(0, page.length - plan.last));
    const edges = page.map(({ node, position }) => ({ cursor: this.order.cursorAt(position), node }));
    return {
      edges,
      pageInfo: {
        // The spec's rule with `last` (more than `last` items in the range); without it, items precede
        // the page exactly when `after`'s item is still in the list (false when it has left: unknown).
        hasPreviousPage: plan.last !== undefined ? between.length > plan.last : afterInList,
        // The spec's rule with `first`; without it, the default page size plays `first` unless `last`
        // is given, and `before`'s item still in the list follows the page.
        hasNextPage: plan.first !== undefined ? between.length > plan.first : (plan.last === undefined && between.length > PAGE_SIZE.default) || beforeInList,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges.at(-1)?.cursor ?? null,
      },
    };
  }

  /**
   * The `select` of a connection over a relation: the page is read with the parent rows, in the
   * parent's query, and the selection beneath the connection's nodes is merged into it. Bad arguments
   * select nothing here; the field's resolver (`connection`) reports them at the field's own path.
   */
  relationSelection(
    relation: string,
    nodeType: string,
    args: ConnectionArguments,
    where: PrismaMap,
    nestedSelection: (...args: never[]) => unknown,
  ): PrismaMap {
    let query: ReturnType<PagedList<Node>["pageQuery"]>;
    try {
      query = this.pageQuery(args, where);
    } catch (error) {
      if (error instanceof DomainError) return {};
      throw error;
    }
    // Pothos types the second argument as one path, but takes an include with several (its own
    // relatedConnection passes the same `{ getType, paths }`).
    const select = nestedSelection as unknown as (query: PrismaMap, include: { getType: () => string; paths: typeof NODE_PATHS }) => unknown;
    return { [relation]: select({ ...query, select: this.order.keySelection }, { getType: () => nodeType, paths: NODE_PATHS }) };
  }

  /** A root connection: one findMany with the page's arguments and the selection beneath the nodes. */
  async resolveRoot(
    args: ConnectionArguments,
    context: object,
    info: GraphQLResolveInfo,
    { nodeType, where, findMany }: { nodeType: string; where: PrismaMap; findMany: (query: PrismaMap) => Promise<Node[]> },
  ): Promise<Connection<Node>> {
    const query = this.pageQuery(args, where);
    const selection = await queryFromInfo({
      context,
      // The mappings it records must be where the fields below the nodes look for them, also when a
      // compiled document resolves this connection on a path of its own.
      info: onSharedPath(context, info),
      typeName: nodeType,
      select: this.order.keySelection as SelectionMap["select"],
      paths: NODE_PATHS,
      awaitSelections: true,
    });
    return this.connection(await findMany({ ...selection, ...query }), args);
  }

  private plan(args: ConnectionArguments): PagePlan {
    const first = pageSize("first", args.first);
    const last = pageSize("last", args.last);
    const after = args.after === null || args.after === undefined ? undefined : this.order.parseCursor("after", args.after);
    const before = args.before === null || args.before === undefined ? undefined : this.order.parseCursor("before", args.before);
    const fromEnd = last !== undefined && first === undefined;
    // The page, one more row of the range (more than `first`, or than `last`, for the page info), and
    // the row of the cursor on the side read from, which the bounds include.
    const take = fromEnd ? -(last + 2) : Math.max(first ?? PAGE_SIZE.default, last ?? 0) + 2;
    return { after, before, first, last, fromEnd, take };
  }
}
