// Cursors of ordered lists. A cursor is the position of an item in its list's order: the values of
// the order's keys, the last of which is the id. A position still marks a place after its item has
// left the list (deleted, filtered out, renamed), so paging from it continues where the item was
// instead of failing or starting over. Keyset bounds turn positions into Prisma `where` filters that
// compare in the database, with the database's own collation, exactly as its ORDER BY does.
import { createHash } from "node:crypto";
import { getDatamodel } from "../db/generated/pothos-types.js";
import { invalidRequest } from "../domain/errors.js";

type Direction = "asc" | "desc";
type KeyType = "String" | "DateTime";

/** One column of the order, reached through `path` (`["release", "name"]` orders grants by release name). */
interface SortKey {
  path: readonly string[];
  type: KeyType;
  direction: Direction;
}

/** One value per sort key, as a cursor carries it (dates as ISO strings). */
export type Position = readonly string[];

/** A Prisma `where` or `select` map: plain data, checked by Prisma against the model. */
export type PrismaMap = Record<string, unknown>;

type Row = Record<string, unknown>;

const KEY_TYPES: readonly string[] = ["String", "DateTime"] satisfies KeyType[];

/** The sort keys of `orderBy` (Prisma's list form, one key per entry), their types read from the datamodel. */
function sortKeysOf(model: string, orderBy: readonly PrismaMap[]): SortKey[] {
  const { models } = getDatamodel().datamodel;
  return orderBy.map((entry) => {
    const path: string[] = [];
    let modelName = model;
    let node: unknown = entry;
    for (;;) {
      const entries = Object.entries(node as PrismaMap);
      if (entries.length !== 1) throw new Error(`list order of ${model}: one key per orderBy entry`);
      const [[name, value]] = entries as [[string, unknown]];
      const field = models[modelName]?.fields.find((candidate) => candidate.name === name);
      path.push(name);
      // Required: a null has no place in the keyset comparisons.
      if (!field || !field.isRequired || field.isList) throw new Error(`list order of ${model}: ${path.join(".")} is not a required field`);
      if (value === "asc" || value === "desc") {
        if (!KEY_TYPES.includes(field.type)) throw new Error(`list order of ${model}: ${path.join(".")} has type ${field.type}`);
        return { path, type: field.type as KeyType, direction: value };
      }
      modelName = field.type;
      node = value;
    }
  });
}

/** `{ release: { name: filter } }` for the path `["release", "name"]`. */
const filterAt = (path: readonly string[], filter: unknown): PrismaMap => path.reduceRight<unknown>((inner, name) => ({ [name]: inner }), filter) as PrismaMap;

/** The ordered items of one list (a model in one order), and the cursors that mark places in it. */
export class ListOrder {
  readonly orderBy: readonly PrismaMap[];
  /** Selects every sort key, to merge into the selection of the list's rows. */
  readonly keySelection: PrismaMap;
  private readonly keys: SortKey[];
  /**
   * Names the order inside each cursor: a cursor of another list or of an older order of this one is
   * refused instead of being read as a place it does not mark. Lists of the same model in the same
   * order (`Account.environments`, `Query.environments`) share their cursors.
   */
  private readonly tag: string;

  constructor(model: string, orderBy: readonly PrismaMap[]) {
    this.orderBy = orderBy;
    this.keys = sortKeysOf(model, orderBy);
    const last = this.keys.at(-1);
    if (!last || last.path.join(".") !== "id") throw new Error(`list order of ${model}: the id must come last, to make the order total`);
    this.keySelection = this.keys.reduce<PrismaMap>((selection, key) => mergeSelection(selection, key.path), {});
    const signature = `${model}:${this.keys.map((key) => `${key.path.join(".")} ${key.direction}`).join(",")}`;
    this.tag = createHash("sha256").update(signature).digest("base64url").slice(0, 8);
  }

  positionOf(row: Row): Position {
    return this.keys.map((key) => {
      const value = key.path.reduce<unknown>((object, name) => (object as Row | undefined)?.[name], row);
      if (value instanceof Date) return value.toISOString();
      if (typeof value === "string") return value;
      throw new Error(`row without its sort key ${key.path.join(".")}: select keySelection with the rows`);
    });
  }

  cursorAt(position: Position): string {
    return Buffer.from(JSON.stringify([this.tag, ...position])).toString("base64url");
  }

  /** The position a cursor marks; REQUEST_INVALID for anything this list did not issue. */
  parseCursor(argument: string, cursor: string): Position {
    const position = this.decode(cursor);
    if (!position) throw invalidRequest([`${argument}: ${JSON.stringify(cursor)} is not a cursor of this list`]);
    return position;
  }

  samePosition(a: Position, b: Position): boolean {
    return a.every((value, index) => value === b[index]);
  }

  /** Items at `position` or after it in the order. */
  atOrAfter(position: Position): PrismaMap {
    return this.bound(position, "after");
  }

  /** Items at `position` or before it in the order. */
  atOrBefore(position: Position): PrismaMap {
    return this.bound(position, "before");
  }

  private decode(cursor: string): Position | undefined {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    } catch {
      return undefined;
    }
    if (!Array.isArray(parsed) || parsed.length !== this.keys.length + 1 || parsed[0] !== this.tag) return undefined;
    const position = parsed.slice(1) as unknown[];
    return this.keys.every((key, index) => isKeyValue(key.type, position[index])) ? (position as Position) : undefined;
  }

  /**
   * The keyset condition "at or after" (or "at or before") a position: for some key, the keys before
   * it are equal and it lies beyond; or every key is equal. Inclusive, so that the page can tell
   * whether the cursor's own item is still in the list.
   */
  private bound(position: Position, side: "after" | "before"): PrismaMap {
    const beyond = (key: SortKey) => ((key.direction === "asc") === (side === "after") ? "gt" : "lt");
    const alternatives = this.keys.map((key, index) => {
      const equalBefore = this.keys.slice(0, index).map((previous, i) => filterAt(previous.path, { equals: toPrisma(previous.type, position[i]!) }));
      const comparison = index === this.keys.length - 1 ? `${beyond(key)}e` : beyond(key);
      return { AND: [...equalBefore, filterAt(key.path, { [comparison]: toPrisma(key.type, position[index]!) })] };
    });
    return { OR: alternatives };
  }
}

function isKeyValue(type: KeyType, value: unknown): boolean {
  // PostgreSQL text cannot hold NUL: only a forged cursor carries one, and the query would fail.
  if (typeof value !== "string" || value.includes("\u0000")) return false;
  if (type === "String") return true;
  const date = new Date(value);
  return !Number.isNaN(date.getTime()) && date.toISOString() === value;
}

const toPrisma = (type: KeyType, value: string): string | Date => (type === "DateTime" ? new Date(value) : value);

/** `select` map with the column at `path` added: `{ release: { select: { name: true } } }`. */
function mergeSelection(selection: PrismaMap, path: readonly string[]): PrismaMap {
  const [name, ...rest] = path;
  if (rest.length === 0) return { ...selection, [name!]: true };
  const nested = ((selection[name!] as { select?: PrismaMap } | undefined)?.select ?? {}) as PrismaMap;
  return { ...selection, [name!]: { select: mergeSelection(nested, rest) } };
}
