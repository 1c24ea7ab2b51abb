// The REST routes' documents are typed from schema.graphql (src/http/rest/graphql.ts). The
// `@ts-expect-error` lines are the test that a wrong document fails `npm run typecheck`: were the
// typing lost, tsc would report each of them as unused.
import { Kind, print, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { buildSchema } from "../../src/graphql/schema.js";
import { graphql, type ResultOf, type VariablesOf } from "../../src/http/rest/graphql.js";
import { restRoute, type RestContract } from "../../src/http/rest/route.js";
import { GRANT_VIEW } from "../../src/http/rest/routes/grants.js";
import { TOOL_RELEASE_FIELDS } from "../../src/http/rest/routes/releases.js";

const GET_RELEASE = graphql(
  `
  query GetRelease($releaseId: UUID!) {
    toolRelease(id: $releaseId) { ...ToolReleaseFields }
  }
`,
  [TOOL_RELEASE_FIELDS],
);

const CONTRACT: RestContract = { tag: "Tests", summary: "a test route", success: { status: 200 } };

describe("typed REST documents", () => {
  it("type results and variables from the schema, scalars included", () => {
    type Release = NonNullable<ResultOf<typeof GET_RELEASE>["toolRelease"]>;
    const release: Pick<Release, "name" | "immutable" | "lifecycle" | "createdAt"> = {
      name: "search",
      immutable: true,
      lifecycle: "PUBLISHED",
      createdAt: "2026-01-01T00:00:00.000Z",
    };
    // @ts-expect-error ReleaseLifecycle has no value "published": enum values are the schema's
    const lowercase: Release["lifecycle"] = "published";
    // @ts-expect-error `immutable` is Boolean!, not a string
    const immutable: Release["immutable"] = "yes";
    const variables: VariablesOf<typeof GET_RELEASE> = { releaseId: "0190a0c0-0000-7000-8000-000000000000" };
    // @ts-expect-error the document declares $releaseId, not $id
    const renamed: VariablesOf<typeof GET_RELEASE> = { id: "0190a0c0-0000-7000-8000-000000000000" };
    expect([release.lifecycle, lowercase, immutable, variables.releaseId, renamed]).toHaveLength(5);
  });

  it("fail the build when a route selects a field the schema lacks", () => {
    const wrong = graphql(`query Wrong($releaseId: UUID!) { toolRelease(id: $releaseId) { uuid releaseNotes } }`);
    const wrongInFragment = graphql(`fragment Wrong on ToolRelease { uuid releaseNotes }`);
    const spreadsIt = graphql(`query SpreadsWrong($releaseId: UUID!) { toolRelease(id: $releaseId) { ...Wrong } }`, [wrongInFragment]);
    const route = { name: "wrong", method: "GET", path: "/v1/wrong/:releaseId", contract: CONTRACT, respond: () => ({}) } as const;
    const variables = (input: { params: { releaseId: string } }) => ({ releaseId: input.params.releaseId });
    // @ts-expect-error ToolRelease has no field releaseNotes (tsc: "fields not in schema.graphql": ".toolRelease.releaseNotes")
    restRoute({ ...route, document: wrong, variables });
    // @ts-expect-error the same field in a fragment the document spreads
    restRoute({ ...route, document: spreadsIt, variables });
    expect(validate(buildSchema(), wrong).map((error) => error.message)).toEqual(['Cannot query field "releaseNotes" on type "ToolRelease".']);
  });

  it("reject a route whose path does not have the parameter its variables read", () => {
    restRoute({
      name: "no parameter",
      method: "GET",
      path: "/v1/tool-releases",
      document: GET_RELEASE,
      // @ts-expect-error the path has no :releaseId
      variables: (input) => ({ releaseId: input.params.releaseId }),
      contract: CONTRACT,
      respond: () => ({}),
    });
    expect(GET_RELEASE.definitions.map((definition) => definition.kind)).toEqual([Kind.OPERATION_DEFINITION, Kind.FRAGMENT_DEFINITION]);
  });

  it("are parsed with each fragment they use appended once, valid against the schema", () => {
    const apply = graphql(`query Twice($grantId: UUID!) { grant(id: $grantId) { ...GrantView } again: grant(id: $grantId) { ...GrantView } }`, [
      GRANT_VIEW,
      GRANT_VIEW,
    ]);
    expect(apply.definitions.map((definition) => ("name" in definition ? definition.name?.value : undefined))).toEqual(["Twice", "GrantView"]);
    expect(validate(buildSchema(), apply)).toEqual([]);
    expect(print(apply)).toContain("fragment GrantView on Grant");
  });
});
