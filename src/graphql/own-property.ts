// Fields that show their parent's property of the same name, as graphql's default resolver does.
// Declared with `ownProperty`, such a field loses its resolver in the built schema
// (`withoutOwnPropertyResolvers`), so graphql-jit reads the property inline. For a field with a
// resolver it makes, per row, the resolver's arguments, its resolve info, the response path and
// three closures: ~370 KB of allocations per nested read of 50 grants, half of them for `name` and
// `version` fields.
import { isObjectType, type GraphQLSchema } from "graphql";

/** The property each own-property resolver reads. */
const propertyOf = new WeakMap<object, string>();

/** The resolver of a field showing its parent's `name`; the field must be called `name` too. */
export function ownProperty<K extends string>(name: K) {
  const resolve = <Parent extends { [key in K]: unknown }>(parent: Parent): Parent[K] => parent[name];
  propertyOf.set(resolve, name);
  return resolve;
}

/** `schema` with the resolvers `ownProperty` made removed from the fields named as their property. */
export function withoutOwnPropertyResolvers(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve && propertyOf.get(field.resolve) === field.name) field.resolve = undefined;
    }
  }
  return schema;
}
