// One-statement reads of a row and the relations a GraphQL selection asks for, below Prisma's query
// engine. The hot reads (a request's token with its account, a grant view, a release, an environment
// with its grants, their releases and owners) are one `findFirst` each whose arguments the schema's
// selection and the domain's access rules build; Prisma answers them in one statement too, but
// spends more CPU than the database does on building and mapping it (docs/performance.md). Here the
// same arguments become one statement that builds the answer as JSON in the database: the domain's
// `where` is translated, never restated, so the access rules stay in one place. Arguments outside the
// subset translated here (`skip`, `cursor`, `include`, text search operators, relations whose key is
// on the other side…) are left to Prisma: `plan` answers undefined and the caller asks Prisma.
// test/db/planned-reads.test.ts holds the two equal over generated arguments on both databases.
import { getDatamodel } from "./generated/pothos-types.js";

/** A plain object: Prisma's arguments, a decoded row. */
type Plain = Record<string, unknown>;
export type PlannedModel = "grant" | "environment" | "toolRelease" | "apiToken";

export interface Field {
  name: string;
  kind: string;
  type: string;
  isList: boolean;
  isRequired?: boolean;
  isId?: boolean;
  relationName?: string;
  relationFromFields?: string[];
}

export interface Model {
  name: string;
  fields: ReadonlyMap<string, Field>;
  id: string;
}

const DATAMODEL = getDatamodel().datamodel.models as unknown as Record<string, { fields: Field[] }>;
const models = new Map<string, Model>(
  Object.entries(DATAMODEL).map(([name, { fields }]) => [
    name,
    { name, fields: new Map(fields.map((field) => [field.name, field])), id: fields.find((field) => field.isId)?.name ?? "" },
  ]),
);

/** Scalar types whose JSON form maps back to Prisma's value without loss. */
const SCALAR_TYPES = new Set(["String", "Int", "Boolean", "DateTime"]);
const MODEL_OF: Record<PlannedModel, string> = { grant: "Grant", environment: "Environment", toolRelease: "ToolRelease", apiToken: "ApiToken" };

const MAX_OBJECT_MEMBERS = 50;
const COMPARISONS: Record<string, string> = { gt: ">", gte: ">=", lt: "<", lte: "<=" };

/** Thrown while translating arguments outside the subset; `plan` answers undefined then. */
export class Unplannable extends Error {}

function unplannable(what: string): never {
  throw new Unplannable(what);
}

export interface Dialect {
  postgres: boolean;
}

/** A statement answering one row, `row`, as JSON text or (PostgreSQL) as node-postgres parsed it. */
export interface PlannedRead {
  sql: string;
  args: unknown[];
  /** The row as Prisma would answer it, from the statement's one column (null: no row). */
  decode(value: unknown): Plain | null;
}

/** A statement answering a list of rows, `rows`, as a JSON array (text, or on PostgreSQL as node-postgres parsed it). */
export interface PlannedList {
  sql: string;
  args: unknown[];
  decode(value: unknown): Plain[];
}

/** `findMany(args)` on `model` as one statement (select, where, orderBy and take; an order is required), or undefined. */
export function planFindMany(dialect: Dialect, model: PlannedModel, args: Plain): PlannedList | undefined {
  return unlessUnplannable(() => new Planner(dialect).findMany(modelOf(model), args));
}

/** `findFirst(args)` on `model` as one statement, or undefined when its arguments are not translated here. */
export function planFindFirst(dialect: Dialect, model: PlannedModel, args: Plain): PlannedRead | undefined {
  return unlessUnplannable(() => new Planner(dialect).findFirst(modelOf(model), args));
}

function unlessUnplannable<T>(plan: () => T): T | undefined {
  try {
    return plan();
  } catch (error) {
    if (error instanceof Unplannable) return undefined;
    throw error;
  }
}

/** How a selected object's JSON becomes Prisma's row: which fields are dates or (SQLite) booleans, and what is nested. */
export interface Shape {
  dates: string[];
  booleans: string[];
  nested: Array<{ name: string; shape: Shape; list: boolean }>;
}

/**
 * One FROM of the statement: its row, and the to-one relations of that row (and of their rows) that
 * the selection, the order or a filter reads, each joined once. A correlated subquery per use looked
 * a grant's release up four times (its object, two sort keys and a filter).
 */
interface FromScope {
  joins: string[];
  joined: Map<string, string>;
}

/** The datamodel's model behind `model`. */
export function modelOf(model: PlannedModel): Model {
  return models.get(MODEL_OF[model])!;
}

export class Planner {
  readonly args: unknown[] = [];
  private aliases = 0;
  /** The FROM each alias belongs to. */
  private readonly scopes = new Map<string, FromScope>();

  constructor(private readonly dialect: Dialect) {}

  findFirst(model: Model, args: Plain): PlannedRead {
    for (const key of Object.keys(args)) if (key !== "select" && key !== "where") unplannable(`findFirst ${key}`);
    const alias = this.rowAlias();
    const { sql: object, shape } = this.object(model, alias, args.select);
    const where = args.where === undefined ? "" : ` WHERE ${this.where(model, alias, args.where)}`;
    const sql = `SELECT ${this.dialect.postgres ? object : `json(${object})`} AS "row" FROM ${this.from(model, alias)}${where} LIMIT 1`;
    const postgres = this.dialect.postgres;
    return {
      sql,
      args: this.args,
      decode: (value) => {
        if (value === null || value === undefined) return null;
        const row = (typeof value === "string" ? JSON.parse(value) : value) as Plain;
        return decodeRow(row, shape, postgres);
      },
    };
  }

  findMany(model: Model, args: Plain): PlannedList {
    const alias = this.rowAlias();
    const { aggregate, page, shape } = this.list(model, alias, args);
    const postgres = this.dialect.postgres;
    return {
      sql: `SELECT ${postgres ? aggregate : `json(${aggregate})`} AS "rows" FROM ${page}`,
      args: this.args,
      decode: (value) => {
        const rows = (typeof value === "string" ? JSON.parse(value) : (value ?? [])) as Plain[];
        return rows.map((row) => decodeRow(row, shape, postgres));
      },
    };
  }

  private alias(): string {
    return `"t${this.aliases++}"`;
  }

  /** The alias of a FROM's row: the relations joined to it are listed by `from`, once the statement around it is built. */
  rowAlias(alias = this.alias()): string {
    this.scopes.set(alias, { joins: [], joined: new Map() });
    return alias;
  }

  /** The relations joined to the row `alias` (an UPDATE has no FROM to join them in). */
  joinsOf(alias: string): readonly string[] {
    return this.scopes.get(alias)!.joins;
  }

  private from(model: Model, alias: string): string {
    return `"${model.name}" AS ${alias}${this.scopes.get(alias)!.joins.join("")}`;
  }

  /** The alias of the row the to-one relation `field` of the row `alias` refers to, joined once per FROM (no row: its columns are NULL). */
  private joined(model: Model, alias: string, field: Field): { target: Model; alias: string } {
    const target = models.get(field.type) ?? unplannable(field.type);
    const [foreignKey] = field.relationFromFields ?? [];
    if (!target.id || !foreignKey || field.relationFromFields!.length !== 1) unplannable(`${model.name}.${field.name}: key on the other side`);
    const scope = this.scopes.get(alias)!;
    const key = `${alias}.${field.name}`;
    let inner = scope.joined.get(key);
    if (inner === undefined) {
      inner = this.alias();
      scope.joined.set(key, inner);
      scope.joins.push(` LEFT JOIN "${target.name}" AS ${inner} ON ${inner}."${target.id}" = ${alias}."${foreignKey}"`);
      this.scopes.set(inner, scope);
    }
    return { target, alias: inner };
  }

  parameter(value: unknown): string {
    this.args.push(value);
    return this.dialect.postgres ? `$${this.args.length}` : "?";
  }

  /** The JSON object of `select` over the row `alias` of `model`. */
  object(model: Model, alias: string, select: unknown): { sql: string; shape: Shape } {
    if (!isPlain(select)) unplannable(`${model.name}: select`);
    const shape: Shape = { dates: [], booleans: [], nested: [] };
    const members: string[] = [];
    for (const [name, wanted] of Object.entries(select)) {
      if (wanted === false) continue;
      if (name === "_count") {
        shape.nested.push({ name, shape: { dates: [], booleans: [], nested: [] }, list: false });
        members.push(`'_count', ${this.counts(model, alias, wanted)}`);
        continue;
      }
      const field = model.fields.get(name) ?? unplannable(`${model.name}.${name}`);
      if (field.kind === "scalar") {
        if (wanted !== true || field.isList || !SCALAR_TYPES.has(field.type)) unplannable(`${model.name}.${name}`);
        if (field.type === "DateTime") shape.dates.push(name);
        if (field.type === "Boolean") shape.booleans.push(name);
        members.push(`'${name}', ${alias}."${name}"`);
      } else if (field.kind === "object") {
        const relation = this.relation(model, alias, field, wanted);
        shape.nested.push({ name, shape: relation.shape, list: field.isList });
        members.push(`'${name}', ${relation.sql}`);
      } else {
        unplannable(`${model.name}.${name}: ${field.kind}`);
      }
    }
    // json_build_object takes at most 100 arguments (SQLite's functions 127 by default): 50 members.
    if (members.length > MAX_OBJECT_MEMBERS) unplannable(`${model.name}: ${members.length} members`);
    // SQLite builds JSONB, which an enclosing object takes as it is; text is made once, at the top.
    const build = this.dialect.postgres ? "json_build_object" : "jsonb_object";
    return { sql: `${build}(${members.join(", ")})`, shape };
  }

  /** `_count: { select: { list: true | { where } } }`: an object of each list relation's count of rows. */
  private counts(model: Model, alias: string, wanted: unknown): string {
    if (!isPlain(wanted) || Object.keys(wanted).length !== 1 || !isPlain(wanted.select)) unplannable(`${model.name}._count`);
    if (!model.id) unplannable(`${model.name}._count: no single-column id`);
    const members: string[] = [];
    for (const [name, counted] of Object.entries(wanted.select)) {
      if (counted === false) continue;
      const field = model.fields.get(name);
      if (!field || field.kind !== "object" || !field.isList) unplannable(`${model.name}._count.${name}`);
      const target = models.get(field.type) ?? unplannable(field.type);
      const inner = this.rowAlias();
      const conditions = [`${inner}."${foreignKeyTo(target, field)}" = ${alias}."${model.id}"`];
      if (counted !== true) {
        if (!isPlain(counted) || Object.keys(counted).some((key) => key !== "where")) unplannable(`${model.name}._count.${name}`);
        if (counted.where !== undefined) conditions.push(this.where(target, inner, counted.where));
      }
      members.push(`'${name}', (SELECT count(*) FROM ${this.from(target, inner)} WHERE ${conditions.join(" AND ")})`);
    }
    return `${this.dialect.postgres ? "json_build_object" : "jsonb_object"}(${members.join(", ")})`;
  }

  /** A relation's JSON: the related object over its joined row (null when absent), or the list as a subquery. */
  private relation(model: Model, alias: string, field: Field, wanted: unknown): { sql: string; shape: Shape } {
    if (!isPlain(wanted)) unplannable(`${model.name}.${field.name}: not a select`);
    if (!field.isList) {
      for (const key of Object.keys(wanted)) if (key !== "select") unplannable(`${model.name}.${field.name} ${key}`);
      const joined = this.joined(model, alias, field);
      const { sql, shape } = this.object(joined.target, joined.alias, wanted.select);
      return { sql: `CASE WHEN ${joined.alias}."${joined.target.id}" IS NULL THEN NULL ELSE ${sql} END`, shape };
    }
    const target = models.get(field.type) ?? unplannable(field.type);
    // Every relation of the schema refers to its target's single-column id (references: [id]).
    if (!model.id) unplannable(`${model.name}.${field.name}: no single-column id`);
    const inner = this.rowAlias();
    const list = this.list(target, inner, wanted, `${inner}."${foreignKeyTo(target, field)}" = ${alias}."${model.id}"`);
    return { sql: `(SELECT ${list.aggregate} FROM ${list.page})`, shape: list.shape };
  }

  /**
   * The rows of `model` (as `alias`) that `args` (select, where, orderBy, take) asks for, and
   * `condition`: the subquery `page` of their JSON objects, and the `aggregate` over it that makes
   * them one JSON array, ordered as asked (SQLite: JSONB).
   */
  private list(model: Model, alias: string, args: Plain, condition?: string): { aggregate: string; page: string; shape: Shape } {
    for (const key of Object.keys(args)) if (!["select", "where", "orderBy", "take"].includes(key)) unplannable(`${model.name} list ${key}`);
    const { sql: object, shape } = this.object(model, alias, args.select);
    const conditions = condition === undefined ? [] : [condition];
    if (args.where !== undefined) conditions.push(this.where(model, alias, args.where));
    // Without an order the database picks one, and Prisma's statement may pick another.
    if (args.orderBy === undefined) unplannable(`${model.name}: a list without an order`);
    const order = this.orderBy(model, alias, args.orderBy);
    let limit = "";
    if (args.take !== undefined) {
      if (typeof args.take !== "number" || !Number.isInteger(args.take) || args.take < 0) unplannable("take");
      // SQLite runs a list subquery whose LIMIT is a bound parameter several times slower than one
      // whose LIMIT is written out (an environment with its one grant of a release: 100 → 12 µs);
      // the count is a checked integer, so it is written out there.
      limit = this.dialect.postgres ? ` LIMIT ${this.parameter(args.take)}` : ` LIMIT ${args.take}`;
    }
    // The sort keys are columns of the page, computed once per row, and order both the page and its array.
    const keys = order.map((key, index) => `${key.expression} AS "k${index}"`).join(", ");
    const byKeys = order.map((key, index) => `"k${index}" ${key.direction}`).join(", ");
    const where = conditions.length === 0 ? "" : ` WHERE ${conditions.join(" AND ")}`;
    const page = `(SELECT ${object} AS "item", ${keys} FROM ${this.from(model, alias)}${where} ORDER BY ${byKeys}${limit}) AS "page"`;
    const aggregate = this.dialect.postgres ? `COALESCE(json_agg("item" ORDER BY ${byKeys}), '[]'::json)` : `jsonb_group_array("item" ORDER BY ${byKeys})`;
    return { aggregate, page, shape };
  }

  /** Prisma's list form of orderBy: each entry one scalar, or one scalar of a to-one relation. */
  private orderBy(model: Model, alias: string, orderBy: unknown): Array<{ expression: string; direction: string }> {
    const entries = Array.isArray(orderBy) ? orderBy : [orderBy];
    return entries.map((entry) => {
      const [name, value] = singleEntry(entry);
      const field = model.fields.get(name) ?? unplannable(`${model.name}.${name}`);
      if (field.kind === "scalar") return { expression: `${alias}."${name}"`, direction: direction(value) };
      if (field.kind !== "object" || field.isList) unplannable(`order by ${model.name}.${name}`);
      const [column, columnDirection] = singleEntry(value);
      const joined = this.joined(model, alias, field);
      if (joined.target.fields.get(column)?.kind !== "scalar") unplannable(`order by ${joined.target.name}.${column}`);
      return { expression: `${joined.alias}."${column}"`, direction: direction(columnDirection) };
    });
  }

  /** A Prisma `where` over the row `alias` of `model`, as SQL. */
  where(model: Model, alias: string, where: unknown): string {
    if (!isPlain(where)) unplannable(`${model.name}: where`);
    const conditions: string[] = [];
    for (const [name, value] of Object.entries(where)) {
      if (value === undefined) continue;
      if (name === "AND" || name === "OR") {
        const parts = (Array.isArray(value) ? value : [value]).map((part) => this.where(model, alias, part));
        if (name === "OR") conditions.push(parts.length === 0 ? "1 = 0" : `(${parts.join(" OR ")})`);
        else conditions.push(...parts);
        continue;
      }
      if (name === "NOT") {
        const parts = (Array.isArray(value) ? value : [value]).map((part) => `NOT (${this.where(model, alias, part)})`);
        conditions.push(...parts);
        continue;
      }
      const field = model.fields.get(name) ?? unplannable(`${model.name}.${name}`);
      conditions.push(field.kind === "object" ? this.relationFilter(model, alias, field, value) : this.scalarFilter(alias, field, value));
    }
    return conditions.length === 0 ? "1 = 1" : conditions.map((condition) => `(${condition})`).join(" AND ");
  }

  private scalarFilter(alias: string, field: Field, filter: unknown): string {
    if (field.kind !== "scalar" || field.isList || !SCALAR_TYPES.has(field.type)) unplannable(`filter on ${field.name}`);
    const column = `${alias}."${field.name}"`;
    if (!isPlain(filter)) return this.equals(column, field, filter);
    const conditions: string[] = [];
    for (const [operator, operand] of Object.entries(filter)) {
      if (operand === undefined) continue;
      if (operator === "equals") conditions.push(this.equals(column, field, operand));
      else if (operator === "not" && !isPlain(operand))
        conditions.push(operand === null ? `${column} IS NOT NULL` : `NOT (${this.equals(column, field, operand)})`);
      else if (operator === "in" && Array.isArray(operand)) conditions.push(this.inList(column, field, operand));
      else if (operator === "notIn" && Array.isArray(operand)) conditions.push(`NOT (${this.inList(column, field, operand)})`);
      else if (operator in COMPARISONS && operand !== null) conditions.push(`${column} ${COMPARISONS[operator]} ${this.parameter(this.value(field, operand))}`);
      else unplannable(`${field.name}: ${operator}`);
    }
    return conditions.length === 0 ? "1 = 1" : conditions.join(" AND ");
  }

  private equals(column: string, field: Field, value: unknown): string {
    if (value === null) return `${column} IS NULL`;
    return `${column} = ${this.parameter(this.value(field, value))}`;
  }

  private inList(column: string, field: Field, values: unknown[]): string {
    if (values.length === 0) return "1 = 0";
    if (values.includes(null)) unplannable(`${field.name}: null in a list`);
    return `${column} IN (${values.map((value) => this.parameter(this.value(field, value))).join(", ")})`;
  }

  /** A value compared in SQL, as the column stores it. */
  private value(field: Field, value: unknown): unknown {
    if (field.type === "String" && typeof value === "string") return value;
    if (field.type === "Int" && typeof value === "number" && Number.isInteger(value)) return value;
    if (field.type === "Boolean" && typeof value === "boolean") return this.dialect.postgres ? value : value ? 1 : 0;
    // PostgreSQL's timestamp(3) takes the UTC time (it ignores the zone); SQLite holds the text
    // Prisma's adapter writes, compared as text, so the same text: ISO 8601 with "+00:00".
    if (field.type === "DateTime" && value instanceof Date && !Number.isNaN(value.getTime())) {
      const iso = value.toISOString();
      return this.dialect.postgres ? iso : `${iso.slice(0, -1)}+00:00`;
    }
    return unplannable(`${field.name}: value ${typeof value}`);
  }

  /** `relation: {…}` (to-one) or `relation: { some | none: {…} }` (to-many), as EXISTS. */
  private relationFilter(model: Model, alias: string, field: Field, filter: unknown): string {
    if (!field.isList) {
      if (!isPlain(filter) || "is" in filter || "isNot" in filter) unplannable(`filter on ${field.name}`);
      const joined = this.joined(model, alias, field);
      // SQL's three values, as Prisma's statement has them: under NOT, a condition that is NULL for the related row stays NULL.
      return `${joined.alias}."${joined.target.id}" IS NOT NULL AND ${this.where(joined.target, joined.alias, filter)}`;
    }
    const target = models.get(field.type)!;
    if (!model.id) unplannable(`filter on ${field.name}: no single-column id`);
    const inner = this.rowAlias();
    const [quantifier, condition] = singleEntry(filter);
    if (quantifier !== "some" && quantifier !== "none") unplannable(`filter on ${field.name}: ${quantifier}`);
    const backKey = foreignKeyTo(target, field);
    const matches = this.where(target, inner, condition);
    const exists = `EXISTS (SELECT 1 FROM ${this.from(target, inner)} WHERE ${inner}."${backKey}" = ${alias}."${model.id}" AND ${matches})`;
    return quantifier === "some" ? exists : `NOT ${exists}`;
  }
}

/** The column of `target` that refers to the model holding the list field `field` (its relation's other side). */
function foreignKeyTo(target: Model, field: Field): string {
  const back = [...target.fields.values()].find((candidate) => candidate.relationName === field.relationName && candidate !== field);
  const keys = back?.relationFromFields ?? [];
  if (keys.length !== 1) unplannable(`${field.name}: no single foreign key`);
  return keys[0]!;
}

function singleEntry(value: unknown): [string, unknown] {
  if (!isPlain(value)) unplannable("expected one key");
  const entries = Object.entries(value);
  if (entries.length !== 1) unplannable("expected one key");
  return entries[0]!;
}

function direction(value: unknown): string {
  if (value === "asc") return "ASC";
  if (value === "desc") return "DESC";
  return unplannable(`order direction ${String(value)}`);
}

function isPlain(value: unknown): value is Plain {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date);
}

/** The row as Prisma answers it: dates as Date (PostgreSQL's JSON omits their zone: they are UTC), booleans as booleans. */
export function decodeRow(row: Plain, shape: Shape, postgres: boolean): Plain {
  for (const name of shape.dates) {
    const value = row[name];
    if (typeof value === "string") row[name] = new Date(postgres ? `${value}Z` : value);
  }
  if (!postgres) for (const name of shape.booleans) if (typeof row[name] === "number") row[name] = row[name] === 1;
  for (const { name, shape: nested, list } of shape.nested) {
    const value = row[name];
    if (list) row[name] = (value as Plain[]).map((item) => decodeRow(item, nested, postgres));
    else if (value !== null && value !== undefined) row[name] = decodeRow(value as Plain, nested, postgres);
  }
  return row;
}
