// A Pothos plugin that resolves a model type's column fields straight from the row when the row
// carries their columns. In select mode every field that selects its own column (`t.expose…`, or
// `t.field` with `select: { column: true }`) is wrapped by the Prisma plugin, which asks the
// request's selection mappings whether the row was loaded with that column, for every row it
// resolves on: a grant list's 50 grant views made ~650 such lookups, ~8 % of its CPU. A value that
// is already on the row answers that question itself (Prisma gives an unloaded column no property,
// a NULL column null), so the lookup only runs for a row without it, where the Prisma plugin's
// fallback loads the column as before. Leaf fields only: nothing below them asks for a mapping.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import { defaultFieldResolver, type GraphQLFieldResolver } from "graphql";

export const loadedColumnsPlugin = "loadedColumns";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Pothos learns of a plugin from this global namespace.
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      loadedColumns: LoadedColumnsPlugin<Types>;
    }
  }
}

type Resolver<Types extends SchemaTypes> = GraphQLFieldResolver<unknown, Types["Context"], object>;

/** The columns a field selects when its selection is only columns of its own row (`{ name: true, … }`). */
export function ownColumnsOf(select: unknown): string[] | undefined {
  if (select === null || typeof select !== "object" || Array.isArray(select)) return undefined;
  const columns = Object.entries(select);
  if (columns.length === 0 || columns.some(([, wanted]) => wanted !== true)) return undefined;
  return columns.map(([column]) => column);
}

/** Whether `row` carries every one of `columns` (a NULL column is null; one not loaded is absent). */
export function carriesColumns(row: unknown, columns: readonly string[]): boolean {
  if (row === null || typeof row !== "object") return false;
  for (const column of columns) if ((row as Record<string, unknown>)[column] === undefined) return false;
  return true;
}

/**
 * Listed before the Prisma plugin, so it wraps the Prisma plugin's resolver (plugins wrap from the
 * last listed inwards): the field's own resolver runs for a row that carries the columns, the Prisma
 * plugin's otherwise. The plugins listed after Prisma wrap only root fields, which are never model
 * fields, so the field's own resolver is what they would have called.
 */
class LoadedColumnsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(resolver: Resolver<Types>, fieldConfig: PothosOutputFieldConfig<Types>): Resolver<Types> {
    if (fieldConfig.kind !== "PrismaObject" || (fieldConfig.type.kind !== "Scalar" && fieldConfig.type.kind !== "Enum")) return resolver;
    const columns = ownColumnsOf(fieldConfig.extensions?.pothosPrismaSelect);
    if (!columns) return resolver;
    const own = (fieldConfig.resolve ?? defaultFieldResolver) as Resolver<Types>;
    return (row, args, context, info) => (carriesColumns(row, columns) ? own(row, args, context, info) : resolver(row, args, context, info));
  }
}

SchemaBuilder.registerPlugin(loadedColumnsPlugin, LoadedColumnsPlugin);
