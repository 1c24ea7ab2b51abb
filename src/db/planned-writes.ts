// Row writes as single statements, for the write transactions that run below Prisma's engine
// (statement-transaction.ts): `create` with every column given (the id generated as Prisma's
// `@default(uuid(7))` would), and `update`/`updateMany` whose `where` the reads' planner translates
// (planned-reads.ts), so the domain's conditions stay written once, in Prisma's argument language.
// Values are handed to the driver adapter as JavaScript values (Date, boolean): it stores them as
// it stores Prisma's. Arguments outside this subset throw: such a transaction has no Prisma to fall
// back on, and the domain calls only what is translated here.
import { uuidv7 } from "uuidv7";
import { decodeRow, modelOf, Planner, Unplannable, type Dialect, type Field, type Model, type PlannedModel, type Shape } from "./planned-reads.js";

type Plain = Record<string, unknown>;

export interface PlannedWrite {
  sql: string;
  args: unknown[];
}

/** An INSERT of one row and the row as Prisma's `create` answers it (its columns in the model's order). */
export function planCreate(dialect: Dialect, model: PlannedModel, data: Plain): PlannedWrite & { row: Plain } {
  const target = modelOf(model);
  const columns = scalarFields(target);
  for (const name of Object.keys(data)) if (!columns.some((field) => field.name === name)) refuse(`${target.name}.create: ${name}`);
  const row: Plain = {};
  for (const field of columns) {
    const given = data[field.name];
    if (given !== undefined) row[field.name] = given;
    else if (field.isId && field.type === "String") row[field.name] = uuidv7();
    else if (!field.isRequired) row[field.name] = null;
    else refuse(`${target.name}.create: ${field.name} must be given`);
  }
  const placeholders = columns.map((_, index) => (dialect.postgres ? `$${index + 1}` : "?"));
  return {
    sql: `INSERT INTO "${target.name}" (${columns.map((field) => `"${field.name}"`).join(", ")}) VALUES (${placeholders.join(", ")})`,
    args: columns.map((field) => row[field.name]),
    row,
  };
}

/**
 * An UPDATE of the rows `where` selects, setting `data`'s columns; with `returning`, it also answers
 * each updated row as Prisma would (decode the statement's one column with `decode`).
 */
export function planUpdate(
  dialect: Dialect,
  model: PlannedModel,
  where: Plain,
  data: Plain,
  returning = false,
): PlannedWrite & { decode(value: unknown): Plain } {
  const target = modelOf(model);
  const planner = new Planner(dialect);
  const table = planner.rowAlias(`"${target.name}"`);
  const assignments = Object.entries(data)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => {
      const field = target.fields.get(name);
      if (!field || field.kind !== "scalar") refuse(`${target.name}.update: ${name}`);
      return `"${name}" = ${planner.parameter(value)}`;
    });
  if (assignments.length === 0) refuse(`${target.name}.update: nothing to set`);
  const condition = translated(() => planner.where(target, table, where));
  if (planner.joinsOf(table).length > 0) refuse(`${target.name}.update: a filter on a to-one relation`);
  let sql = `UPDATE "${target.name}" SET ${assignments.join(", ")} WHERE ${condition}`;
  let shape: Shape = { dates: [], booleans: [], nested: [] };
  if (returning) {
    const all = Object.fromEntries(scalarFields(target).map((field) => [field.name, true]));
    const object = translated(() => planner.object(target, table, all));
    shape = object.shape;
    sql += ` RETURNING ${dialect.postgres ? object.sql : `json(${object.sql})`} AS "row"`;
  }
  return {
    sql,
    args: planner.args,
    decode: (value) => decodeRow((typeof value === "string" ? JSON.parse(value) : value) as Plain, shape, dialect.postgres),
  };
}

function scalarFields(model: Model): Field[] {
  return [...model.fields.values()].filter((field) => field.kind === "scalar");
}

function translated<T>(translate: () => T): T {
  try {
    return translate();
  } catch (error) {
    if (error instanceof Unplannable) refuse(error.message);
    throw error;
  }
}

function refuse(what: string): never {
  throw new Error(`not translated to a planned write: ${what}`);
}
