// A model type's column fields answer from the row when it carries their columns, and its to-one
// relations when it carries the related row and nothing selected below asks for a mapping, without the
// Prisma plugin's per-row selection-mapping lookup; anything else goes to the Prisma plugin. The
// answers over HTTP are the conformance suites'; here the schema's own resolvers are called with a
// context that holds only the reader (no database, no mappings), so any lookup or fallback load would fail.
import { Kind, parse, visit, type FieldNode, type GraphQLField, type GraphQLObjectType, type GraphQLResolveInfo } from "graphql";
import { describe, expect, it } from "vitest";
import { carriesColumns, ownColumnsOf } from "../../src/graphql/loaded-fields.js";
import { buildSchema } from "../../src/graphql/schema.js";

describe("ownColumnsOf", () => {
  it("names the columns of a selection made only of its own row's columns", () => {
    expect(ownColumnsOf({ lifecycle: true })).toEqual(["lifecycle"]);
    expect(ownColumnsOf({ sourceKind: true, componentId: true })).toEqual(["sourceKind", "componentId"]);
  });

  it("declines relations, computed selections and anything else", () => {
    expect(ownColumnsOf({ owner: { select: { name: true } } })).toBeUndefined();
    expect(ownColumnsOf({ name: true, owner: true, grants: { take: 1 } })).toBeUndefined();
    expect(ownColumnsOf(() => ({ name: true }))).toBeUndefined();
    expect(ownColumnsOf({})).toBeUndefined();
    expect(ownColumnsOf(null)).toBeUndefined();
    expect(ownColumnsOf(false)).toBeUndefined();
    expect(ownColumnsOf([true])).toBeUndefined();
  });
});

describe("carriesColumns", () => {
  it("counts a NULL column as carried and a missing one as not loaded", () => {
    expect(carriesColumns({ a: null, b: 0, c: false }, ["a", "b", "c"])).toBe(true);
    expect(carriesColumns({ a: 1 }, ["a", "b"])).toBe(false);
    expect(carriesColumns({ a: undefined }, ["a"])).toBe(false);
    expect(carriesColumns(null, ["a"])).toBe(false);
    expect(carriesColumns("a", ["a"])).toBe(false);
  });
});

describe("column fields of the schema's model types", () => {
  const schema = buildSchema();
  const infoFor = (type: GraphQLObjectType, field: GraphQLField<unknown, unknown>) =>
    ({
      fieldName: field.name,
      parentType: type,
      returnType: field.type,
      path: { prev: undefined, key: field.name, typename: type.name },
    }) as unknown as GraphQLResolveInfo;
  /** Fields whose value is one column of the same name, selected by the field itself. */
  const exposedColumns = (typeName: string) => {
    const type = schema.getType(typeName) as GraphQLObjectType;
    return Object.values(type.getFields())
      .filter((field) => ownColumnsOf(field.extensions.pothosPrismaSelect)?.join() === field.name)
      .map((field) => ({ type, field }));
  };

  const ROW_ID = "5d3f0c62-9c0e-4a55-9d49-1a0a6f8f3f11";
  /** The account itself reads its own columns (plan, admin, createdAt are the account's business). */
  const context = { actor: () => ({ id: ROW_ID, admin: false }) };
  const valueFor = (name: string) => (name.endsWith("At") ? new Date("2026-01-02T03:04:05.000Z") : name === "plan" ? "team" : `value of ${name}`);

  const exposed = { Grant: exposedColumns("Grant"), ToolRelease: exposedColumns("ToolRelease"), Account: exposedColumns("Account") };

  it("include what a grant view shows of each model", () => {
    const names = (list: typeof exposed.Grant) => list.map(({ field }) => field.name);
    expect(names(exposed.Grant)).toEqual(expect.arrayContaining(["protected", "automatic", "lifecycle", "createdAt", "stateChangedById"]));
    expect(names(exposed.ToolRelease)).toEqual(expect.arrayContaining(["metadataVersion", "metadataDigest", "sourceDigest"]));
    expect(names(exposed.Account)).toContain("email");
  });

  it.each(Object.entries(exposed))("%s: answer a row that carries the column from the row, with no database in the context", async (_, fields) => {
    for (const { type, field } of fields) {
      const value = valueFor(field.name);
      const row = { id: ROW_ID, [field.name]: value };
      await expect(Promise.resolve(field.resolve!(row, {}, context, infoFor(type, field))), `${type.name}.${field.name}`).resolves.toBe(value);
    }
  });

  it.each(Object.entries(exposed))("%s: hand a row without the column to the Prisma plugin", async (_, fields) => {
    for (const { type, field } of fields) {
      const row = { id: ROW_ID };
      // The Prisma plugin looks the row's mapping up and, finding none, loads the column: with no
      // database and no resolve info in hand, that fails, which an answer from the row would not.
      await expect((async () => field.resolve!(row, {}, context, infoFor(type, field)))(), `${type.name}.${field.name}`).rejects.toThrow();
    }
  });
});

describe("to-one relations of the schema's model types", () => {
  const schema = buildSchema();
  const grantType = schema.getType("Grant") as GraphQLObjectType;
  const release = grantType.getFields().release!;
  const RELEASE_ROW = { id: "b0d1c2e3-0000-4000-8000-000000000001", name: "git-lite", version: "1.2.3", owner: { id: "a", name: "Ada" } };
  const context = { actor: () => ({ id: "a", admin: false }) };

  /** Resolve info for `Grant.release` as selected in `query` (its first `release` field). */
  function infoFor(query: string): GraphQLResolveInfo {
    const document = parse(query);
    let releaseNode: FieldNode | undefined;
    visit(document, { Field: (node) => void (node.name.value === "release" && (releaseNode ??= node)) });
    const fragments = Object.fromEntries(
      document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION).map((fragment) => [fragment.name.value, fragment]),
    );
    return {
      fieldName: "release",
      fieldNodes: [releaseNode!],
      parentType: grantType,
      returnType: release.type,
      fragments,
      path: { prev: { prev: undefined, key: "grant", typename: "Query" }, key: "release", typename: "Grant" },
    } as unknown as GraphQLResolveInfo;
  }
  const resolve = (row: object, query: string) => (async () => release.resolve!(row, {}, context, infoFor(query)))();

  it.each([
    ["columns and a to-one relation below", "{ grant { release { name version owner { name } } } }"],
    ["fragments and __typename", "{ grant { release { ...R } } } fragment R on ToolRelease { __typename name ... on ToolRelease { owner { name } } }"],
    ["a column field whose value is a plain object", "{ grant { release { source { kind } } } }"],
  ])("answer a row that carries the related row from the row when the query selects %s", async (_, query) => {
    const row = { id: "g", release: RELEASE_ROW };
    await expect(resolve(row, query)).resolves.toBe(RELEASE_ROW);
  });

  it("answer a related row that is null (a NULL key) as null", async () => {
    await expect(resolve({ id: "g", release: null }, "{ grant { release { name } } }")).resolves.toBeNull();
  });

  it.each([
    ["the row does not carry the related row", { id: "g" }, "{ grant { release { name } } }"],
    ["a list below it asks for a mapping", { id: "g", release: RELEASE_ROW }, "{ grant { release { name grants(first: 1) { nodes { uuid } } } } }"],
    ["a relation below it does", { id: "g", release: RELEASE_ROW }, "{ grant { release { owner { toolReleases(first: 1) { nodes { name } } } } } }"],
  ])("hand it to the Prisma plugin when %s", async (_, row, query) => {
    // With no database and no mappings in the context, the Prisma plugin fails where an answer from the row would not.
    await expect(resolve(row, query)).rejects.toThrow();
  });
});
