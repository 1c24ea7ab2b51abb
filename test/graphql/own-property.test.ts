// Fields declared with `ownProperty` lose their resolver in the built schema, so compiled execution
// reads the property inline; a resolver under another field's name, or any other resolver, stays.
import { execute, GraphQLObjectType, GraphQLSchema, GraphQLString, parse, type GraphQLField } from "graphql";
import { describe, expect, it } from "vitest";
import { ownProperty, withoutOwnPropertyResolvers } from "../../src/graphql/own-property.js";
import { buildSchema } from "../../src/graphql/schema.js";

describe("own-property fields", () => {
  it("have no resolver in the built schema: a release's name and version, an account's and an environment's name", () => {
    const schema = buildSchema();
    const field = (type: string, name: string) => (schema.getType(type) as GraphQLObjectType).getFields()[name] as GraphQLField<unknown, unknown>;
    for (const [type, name] of [
      ["ToolRelease", "name"],
      ["ToolRelease", "version"],
      ["Account", "name"],
      ["Environment", "name"],
    ] as const) {
      expect(field(type, name).resolve, `${type}.${name}`).toBeUndefined();
    }
    // A renamed column keeps its resolver.
    expect(field("Grant", "uuid").resolve).toBeTypeOf("function");
  });

  it("keeps a resolver named for another property, and answers the same without the removed ones", async () => {
    const shown = ownProperty("title");
    const query = new GraphQLObjectType({
      name: "Query",
      fields: {
        title: { type: GraphQLString, resolve: () => ({ title: "kept" }).title },
        book: {
          type: new GraphQLObjectType({
            name: "Book",
            fields: { title: { type: GraphQLString, resolve: shown }, heading: { type: GraphQLString, resolve: shown } },
          }),
          resolve: () => ({ title: "Dune", heading: "unused" }),
        },
      },
    });
    const schema = new GraphQLSchema({ query });
    const before = await execute({ schema, document: parse("{ title book { title heading } }") });
    withoutOwnPropertyResolvers(schema);
    const book = schema.getType("Book") as GraphQLObjectType;
    expect(book.getFields().title!.resolve).toBeUndefined();
    expect(book.getFields().heading!.resolve).toBe(shown);
    expect(await execute({ schema, document: parse("{ title book { title heading } }") })).toEqual(before);
    expect(before).toEqual({ data: { title: "kept", book: { title: "Dune", heading: "Dune" } } });
  });
});
