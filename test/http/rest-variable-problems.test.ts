// REST problem wording comes from graphql-js's structured coercion (path, value, reason), placed
// where the REST request carries the value.
import { buildSchema, GraphQLError, type GraphQLScalarType, parse, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { variableProblems } from "../../src/http/rest/variable-problems.js";

const schema = buildSchema(`
  scalar UUID
  enum ReleaseSelectorType { BY_ID BY_COORDINATES }
  input ReleaseInput { type: ReleaseSelectorType! releaseId: UUID }
  input CreateGrantInput { automatic: Boolean release: ReleaseInput! }
  type Query { grant(id: UUID!): Boolean }
  type Mutation { createGrant(grantId: UUID!, body: CreateGrantInput!): Boolean }
`);
// A UUID scalar that refuses what is not one, as the service's does.
Object.assign(schema.getType("UUID") as GraphQLScalarType, {
  parseValue: (value: unknown) => {
    if (typeof value !== "string" || !/^[0-9a-f-]{36}$/.test(value)) throw new GraphQLError("Value is not a valid UUID");
    return value;
  },
});
const operation = parse("mutation ($grantId: UUID!, $body: CreateGrantInput!) { createGrant(grantId: $grantId, body: $body) }")
  .definitions[0] as OperationDefinitionNode;
const ID = "01a21c52-ac1d-710e-8427-32a9253d056b";
const problemsOf = (inputs: Record<string, unknown>) => variableProblems(schema, operation, inputs, { grantId: String(inputs.grantId) });

describe("REST problem wording", () => {
  it("accepts valid values", () => {
    expect(problemsOf({ grantId: ID, body: { automatic: true, release: { type: "BY_ID", releaseId: ID } } })).toEqual([]);
  });

  it("names a body field by its path in the body", () => {
    expect(problemsOf({ grantId: ID, body: { automatic: "yes", release: { type: "BY_ID" } } })).toEqual([
      'body.automatic: Boolean cannot represent a non boolean value: "yes"',
    ]);
  });

  it("names a path parameter as path.<name> and keeps the bad value", () => {
    expect(problemsOf({ grantId: "nope", body: { release: { type: "BY_ID" } } })).toEqual(['path.grantId: "nope" is invalid: Value is not a valid UUID']);
  });

  it("reports a missing value as required, and a null one as not allowed", () => {
    expect(problemsOf({ grantId: ID })).toEqual(["body: required"]);
    expect(problemsOf({ grantId: ID, body: null })).toEqual(["body: must not be null"]);
    expect(problemsOf({ grantId: ID, body: {} })).toEqual(['body: {} is invalid: Field "release" of required type "ReleaseInput!" was not provided.']);
  });

  it("lists every problem of a request, each where it is", () => {
    expect(problemsOf({ grantId: "nope", body: { automatic: 3, release: { type: "BY_ID", releaseId: "x" } } })).toEqual([
      'path.grantId: "nope" is invalid: Value is not a valid UUID',
      "body.automatic: Boolean cannot represent a non boolean value: 3",
      'body.release.releaseId: "x" is invalid: Value is not a valid UUID',
    ]);
  });

  it("suggests selector types in the REST words (ById), not as GraphQL names them (BY_ID)", () => {
    expect(problemsOf({ grantId: ID, body: { release: { type: "byId" } } })).toEqual([
      'body.release.type: Value "byId" does not exist in "ReleaseSelectorType" enum. Did you mean the enum value "ById"?',
    ]);
  });
});
