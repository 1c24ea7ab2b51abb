// A Pothos plugin that answers a model type's fields straight from the row when the row already
// carries what they show. In select mode every field that selects something of its row (`t.expose…`,
// `t.field` with `select: { column: true }`, `t.relation`) is wrapped by the Prisma plugin, which asks
// the request's selection mappings whether the row was loaded with that selection, for every row it
// resolves on, and for a relation records the mappings its children will ask for. A grant list's 50
// grant views made ~650 such lookups for their columns; a nested read of 50 grants with their
// releases and owners spent a fifth of its CPU on them. Two kinds of field answer without them:
// - a column field (its selection is only columns of its own row, its value a scalar, an enum or a
//   plain object) when the row carries the columns: Prisma gives an unloaded column no property, a
//   NULL column null;
// - a to-one relation when the row carries the related row (null included) and everything the query
//   selects below it is such a field, a to-one relation of the same kind, or a leaf that selects
//   nothing, so nothing below it asks for a mapping.
// Anything else, and a row without what is asked, goes to the Prisma plugin, which loads it as before.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import {
  defaultFieldResolver,
  getNamedType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from "graphql";
import { withSharedPaths } from "./shared-paths.js";

export const loadedFieldsPlugin = "loadedFields";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Pothos learns of a plugin from this global namespace.
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      loadedFields: LoadedFieldsPlugin<Types>;
    }
  }
}

type Resolver<Types extends SchemaTypes> = GraphQLFieldResolver<unknown, Types["Context"], object>;
type OutputType<Types extends SchemaTypes> = PothosOutputFieldConfig<Types>["type"];

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
 * A field that answers without a mapping when nothing below it asks for one: a leaf (`leaf`), or an
 * object of type `target` (a to-one relation, or a column field whose value is a plain object) whose
 * own selection must qualify in turn. Fields not recorded may ask for one.
 */
type RowAnswer = { kind: "leaf" } | { kind: "object"; target: string };

interface PrismaRelationField {
  name: string;
  type: string;
  isList: boolean;
}

/**
 * Listed before the Prisma plugin, so it wraps the Prisma plugin's resolver (plugins wrap from the
 * last listed inwards): the field's own resolver runs for a row that carries what it shows, the Prisma
 * plugin's otherwise. The plugins listed after Prisma wrap only root fields, which are never model
 * fields, so the field's own resolver is what they would have called.
 */
class LoadedFieldsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  /** Every field that can answer without a mapping, by `Type.field`: filled while the schema is built. */
  readonly #answers = new Map<string, RowAnswer>();
  /** Whether a relation field's selection qualifies, by its (single) field node in a parsed document. */
  readonly #selections = new WeakMap<FieldNode, boolean>();

  override wrapResolve(resolver: Resolver<Types>, fieldConfig: PothosOutputFieldConfig<Types>): Resolver<Types> {
    const key = `${fieldConfig.parentType}.${fieldConfig.name}`;
    const select = fieldConfig.kind === "PrismaObject" ? fieldConfig.extensions?.pothosPrismaSelect : undefined;
    // The Prisma plugin wraps only fields with a selection: the others never ask for a mapping.
    if (!select) {
      if (this.#isLeaf(fieldConfig.type)) {
        this.#answers.set(key, { kind: "leaf" });
        return resolver;
      }
      // A root field may record mappings for the fields below it; a plain object's fields record none.
      const root = fieldConfig.kind === "Query" || fieldConfig.kind === "Mutation" || fieldConfig.kind === "Subscription";
      return root ? withSharedPaths(resolver) : resolver;
    }
    const own = (fieldConfig.resolve ?? defaultFieldResolver) as Resolver<Types>;
    const prisma = withSharedPaths(resolver);
    const columns = ownColumnsOf(select);
    const leaf = this.#isLeaf(fieldConfig.type);
    if (columns && (leaf || this.#isPlainObject(fieldConfig.type))) {
      this.#answers.set(key, leaf ? { kind: "leaf" } : { kind: "object", target: this.#namedTypeOf(fieldConfig.type).name });
      return (row, args, context, info) => (carriesColumns(row, columns) ? own(row, args, context, info) : prisma(row, args, context, info));
    }
    const relation = fieldConfig.extensions?.pothosPrismaRelationField as PrismaRelationField | undefined;
    if (relation && !relation.isList && Object.keys(fieldConfig.args).length === 0) {
      this.#answers.set(key, { kind: "object", target: this.#namedTypeOf(fieldConfig.type).name });
      const { name } = relation;
      return (row, args, context, info) =>
        row !== null && typeof row === "object" && (row as Record<string, unknown>)[name] !== undefined && this.#selectionQualifies(info)
          ? own(row, args, context, info)
          : prisma(row, args, context, info);
    }
    return prisma;
  }

  /** The type a field's value is, or is a list of (lists of). */
  #namedTypeOf(type: OutputType<Types>) {
    let named = type;
    while (named.kind === "List") named = named.type;
    return this.buildCache.getTypeConfig(named.ref);
  }

  #isLeaf(type: OutputType<Types>): boolean {
    const { kind } = this.#namedTypeOf(type);
    return kind === "Scalar" || kind === "Enum";
  }

  /** An object type of no Prisma model: its fields read the value they are given, never a mapping. */
  #isPlainObject(type: OutputType<Types>): boolean {
    const config = this.#namedTypeOf(type);
    return config.kind === "Object" && config.extensions?.pothosPrismaModel === undefined;
  }

  #selectionQualifies(info: GraphQLResolveInfo): boolean {
    const nodes = info.fieldNodes;
    const target = getNamedType(info.returnType).name;
    if (nodes.length > 1) return nodes.every((fieldNode) => this.#answersBelow(target, fieldNode.selectionSet, info.fragments));
    const node = nodes[0]!;
    let qualifies = this.#selections.get(node);
    if (qualifies === undefined) {
      qualifies = this.#answersBelow(target, node.selectionSet, info.fragments);
      this.#selections.set(node, qualifies);
    }
    return qualifies;
  }

  /** Whether every field `selectionSet` selects on `typeName`, down to the leaves, answers without a mapping. */
  #answersBelow(typeName: string, selectionSet: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>): boolean {
    if (!selectionSet) return false;
    return selectionSet.selections.every((selection) => {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === "__typename") return true;
        const answer = this.#answers.get(`${typeName}.${selection.name.value}`);
        if (!answer) return false;
        return answer.kind === "leaf" || this.#answersBelow(answer.target, selection.selectionSet, fragments);
      }
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments[selection.name.value];
      if (!fragment || (fragment.typeCondition && fragment.typeCondition.name.value !== typeName)) return false;
      return this.#answersBelow(typeName, fragment.selectionSet, fragments);
    });
  }
}

SchemaBuilder.registerPlugin(loadedFieldsPlugin, LoadedFieldsPlugin);
