import { describe, expect, it } from "vitest";
import { restProblem } from "../../src/http/rest/problems.js";

describe("REST problem wording", () => {
  it("names a body field by its path in the body", () => {
    expect(restProblem('Variable "$body" got invalid value "yes" at "body.automatic"; Boolean cannot represent a non boolean value: "yes"', {})).toBe(
      'body.automatic: Boolean cannot represent a non boolean value: "yes"',
    );
  });

  it("names a path parameter as path.<name> and keeps the bad value", () => {
    expect(restProblem('Variable "$grantId" got invalid value "nope"; Value is not a valid UUID', { grantId: "nope" })).toBe(
      'path.grantId: "nope" is invalid: Value is not a valid UUID',
    );
  });

  it("reports a missing variable as required", () => {
    expect(restProblem('Variable "$body" of required type "CreateGrantInput!" was not provided.', {})).toBe("body: required");
  });

  it("suggests selector types in the spec's words (ById), not as GraphQL names them (BY_ID)", () => {
    const graphQLMessage =
      'Variable "$body" got invalid value "byId" at "body.release.type"; Value "byId" does not exist in "ReleaseSelectorType" enum. Did you mean the enum value "BY_ID"?';
    expect(restProblem(graphQLMessage, {})).toBe('body.release.type: Value "byId" does not exist in "ReleaseSelectorType" enum. Did you mean the enum value "ById"?');
  });

  it("leaves other messages alone", () => {
    expect(restProblem("something else", {})).toBe("something else");
  });
});
