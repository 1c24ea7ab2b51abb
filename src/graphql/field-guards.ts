// Field guards: a permission check that runs with a field's parent and arguments before the field
// resolves. The Prisma plugin resolves relation connections from rows preloaded with their parent,
// so such fields have no resolver of ours where a check could go; a guard is that place.
import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from "@pothos/core";
import type { GraphQLFieldResolver } from "graphql";

const GUARD_EXTENSION = "toolgateFieldGuard";

/** Throws (a DomainError) when the field may not be resolved for this parent and these arguments. */
export type FieldGuard<Parent, Args, Context> = (parent: Parent, args: Args, context: Context) => void;

/** The `extensions` of a guarded field: `extensions: guardedBy((environment, args, ctx) => …)`. */
export function guardedBy<Parent, Args, Context>(guard: FieldGuard<Parent, Args, Context>): Record<string, unknown> {
  return { [GUARD_EXTENSION]: guard };
}

class FieldGuardPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types["Context"], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types["Context"], object> {
    const guard = fieldConfig.extensions?.[GUARD_EXTENSION] as FieldGuard<unknown, object, Types["Context"]> | undefined;
    if (!guard) return resolver;
    return (parent, args, context, info) => {
      guard(parent, args, context);
      return resolver(parent, args, context, info);
    };
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      fieldGuards: FieldGuardPlugin<Types>;
    }
  }
}

const pluginName = "fieldGuards";
SchemaBuilder.registerPlugin(pluginName, FieldGuardPlugin);

export default pluginName;
