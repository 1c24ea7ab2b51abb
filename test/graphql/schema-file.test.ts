import { readFileSync } from "node:fs";
import { getNamedType, isEnumType, isInputObjectType, isInterfaceType, isIntrospectionType, isObjectType, type GraphQLNamedType } from "graphql";
import { describe, expect, it } from "vitest";
import { printedSchema, schemaTypesFile } from "../../scripts/schema-outputs.js";
import { buildSchema } from "../../src/graphql/schema.js";

const schema = buildSchema();
const namedTypes: GraphQLNamedType[] = Object.values(schema.getTypeMap()).filter((type) => !isIntrospectionType(type));

const MISSING = "these schema elements need a non-empty description";

const described = (element: { description?: string | null | undefined }) => (element.description ?? "").trim() !== "";

/** Every offender as a schema coordinate (`Type.field(argument:)`), for a failure message that says what to fix. */
function undescribed(coordinatesOf: (type: GraphQLNamedType) => { coordinate: string; description?: string | null | undefined }[]): string[] {
  return namedTypes
    .flatMap(coordinatesOf)
    .filter((element) => !described(element))
    .map((element) => element.coordinate);
}

describe("schema.graphql", () => {
  it("is the printed schema (run `npm run schema` after changing a type)", () => {
    const file = readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8");
    expect(file, "schema.graphql is stale: run `npm run schema`").toBe(printedSchema(schema));
  });
});

describe("src/http/rest/graphql-env.d.ts", () => {
  it("is the schema as gql.tada types the REST documents with (run `npm run schema` after changing a type)", () => {
    const file = readFileSync(new URL("../../src/http/rest/graphql-env.d.ts", import.meta.url), "utf8");
    expect(file, "graphql-env.d.ts is stale: run `npm run schema`").toBe(schemaTypesFile(schema));
  });
});

describe("schema descriptions", () => {
  it("every type has a description", () => {
    expect(
      undescribed((type) => [{ coordinate: type.name, description: type.description }]),
      MISSING,
    ).toEqual([]);
  });

  it("every field of every object and interface type has a description", () => {
    const offenders = undescribed((type) =>
      isObjectType(type) || isInterfaceType(type)
        ? Object.values(type.getFields()).map((field) => ({ coordinate: `${type.name}.${field.name}`, description: field.description }))
        : [],
    );
    expect(offenders, MISSING).toEqual([]);
  });

  it("every argument has a description", () => {
    const offenders = undescribed((type) =>
      isObjectType(type) || isInterfaceType(type)
        ? Object.values(type.getFields()).flatMap((field) =>
            field.args.map((argument) => ({ coordinate: `${type.name}.${field.name}(${argument.name}:)`, description: argument.description })),
          )
        : [],
    );
    expect(offenders, MISSING).toEqual([]);
  });

  it("every input field has a description", () => {
    const offenders = undescribed((type) =>
      isInputObjectType(type)
        ? Object.values(type.getFields()).map((field) => ({ coordinate: `${type.name}.${field.name}`, description: field.description }))
        : [],
    );
    expect(offenders, MISSING).toEqual([]);
  });

  it("every enum value has a description", () => {
    const offenders = undescribed((type) =>
      isEnumType(type) ? type.getValues().map((value) => ({ coordinate: `${type.name}.${value.name}`, description: value.description })) : [],
    );
    expect(offenders, MISSING).toEqual([]);
  });
});

describe("connection types", () => {
  /** Every field returning a type named *Connection, with that type's name, its edge type and its node type. */
  const connectionFields = namedTypes.flatMap((type) =>
    isObjectType(type) || isInterfaceType(type)
      ? Object.values(type.getFields()).flatMap((field) => {
          const connection = getNamedType(field.type);
          if (!isObjectType(connection) || !connection.name.endsWith("Connection")) return [];
          const { edges, nodes } = connection.getFields();
          return [
            {
              coordinate: `${type.name}.${field.name}`,
              connection: connection.name,
              edge: getNamedType(edges!.type).name,
              node: getNamedType(nodes!.type).name,
            },
          ];
        })
      : [],
  );

  it("are one per node type, <Node>Connection with <Node>Edge edges, so clients can share fragments", () => {
    expect(connectionFields.length).toBeGreaterThan(0);
    expect(connectionFields).toEqual(connectionFields.map((field) => ({ ...field, connection: `${field.node}Connection`, edge: `${field.node}Edge` })));
  });
});

describe("enum values", () => {
  it("are in upper snake case (PUBLISHED, NO_CHANGE, BY_ID), as GraphQL clients and linters expect", () => {
    const values = namedTypes.flatMap((type) => (isEnumType(type) ? type.getValues().map((value) => `${type.name}.${value.name}`) : []));
    expect(values.length).toBeGreaterThan(0);
    expect(values.filter((coordinate) => !/\.[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/.test(coordinate))).toEqual([]);
  });
});
