// Plain list fields whose length the data decides (an environment's active grants, an account's
// releases, its share offers) answer at most LIST_CAP items, so that no answer grows with the data:
// `first` says how many, the cap when omitted. They stay lists for the clients that read them; the
// connections beside them (`grants`, `toolReleases`) page through any number.
import { DomainError, invalidRequest } from "../domain/errors.js";
import type { PrismaMap } from "./list-cursors.js";
import { PAGE_SIZE } from "./pagination.js";

/** The most items a plain list answers: the largest page of a connection. */
export const LIST_CAP = PAGE_SIZE.max;

/** A list field's `first` argument: its description and default. */
export const firstOfCappedList = (items: string) => ({
  required: false,
  defaultValue: LIST_CAP,
  description: `The first this many ${items}, 0 to ${LIST_CAP}; ${LIST_CAP} when omitted or null.`,
});

/** One capped list field, named for its errors, with the connection that pages through the whole list, if any. */
export class CappedList {
  constructor(
    private readonly field: string,
    private readonly connection?: string,
  ) {}

  /** The rows to read for `first`; REQUEST_INVALID below 0 or above the cap. */
  take(first: number | null | undefined): number {
    if (first === null || first === undefined) return LIST_CAP;
    if (first >= 0 && first <= LIST_CAP) return first;
    const more = this.connection ? `; page through ${this.connection} for more` : "";
    throw invalidRequest([`${this.field}(first:) must be from 0 to ${LIST_CAP} (got ${first})${more}`]);
  }

  /**
   * The `select` of a list over a relation: its rows are read with the parent row, `first` of them.
   * A bad `first` selects nothing here; the resolver (`rowsOf`) reports it at the field's own path.
   */
  relationSelection(relation: string, first: number | null | undefined, query: PrismaMap, nestedSelection: (query: PrismaMap) => unknown): PrismaMap {
    let take: number;
    try {
      take = this.take(first);
    } catch (error) {
      if (error instanceof DomainError) return {};
      throw error;
    }
    return { [relation]: nestedSelection({ ...query, take }) };
  }

  /** The resolver of a list over a relation: the rows `relationSelection` loaded onto the parent row. */
  rowsOf<Row>(parent: object, relation: string, first: number | null | undefined): Row[] {
    this.take(first);
    const rows = (parent as Record<string, unknown>)[relation];
    if (!Array.isArray(rows)) throw new Error(`the ${relation} list was not loaded with its parent row`);
    return rows as Row[];
  }
}
