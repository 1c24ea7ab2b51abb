// ESLint checks schema.graphql with graphql-eslint's schema rules, recommended and Relay, every one of
// them on (`npm run lint:schema`; test/clients/graphql-eslint.test.ts runs it in CI). Two rules take
// options, each for the reason beside it.
import graphql from "@graphql-eslint/eslint-plugin";

export default [
  {
    files: ["schema.graphql"],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig: { schema: "schema.graphql" } } },
    plugins: { "@graphql-eslint": graphql },
    rules: {
      ...graphql.configs["flat/schema-recommended"].rules,
      ...graphql.configs["flat/schema-relay"].rules,
      // Objects with an identity of their own are Nodes with `id: ID!`. These have none: results and
      // summaries that only exist inside another object (an apply's result, a definition's commands),
      // pages and edges, a share (an environment and an account make it), an issued token's envelope.
      // An API token is identified by its `uuid` and is not a Node (issue 9: tokens are never fetched
      // by `node(id:)`).
      "@graphql-eslint/strict-id-in-types": [
        "error",
        {
          exceptions: {
            suffixes: ["Connection", "Edge"],
            types: [
              "ApiToken",
              "ApplyResult",
              "CommandAnnotations",
              "CommandSummary",
              "DefinitionSummary",
              "EnvironmentShare",
              "IssuedApiToken",
              "PageInfo",
              "PublicationPlanEntry",
              "ReleaseSource",
              "ValidationResult",
            ],
          },
        },
      ],
      // Lists that are not connections are part of the design: a connection's `nodes` shortcut,
      // unpaged lists (`activeGrants`, `toolReleaseList`), a mutation's results (`ApplyResult.grants`)
      // and a definition's commands. The rule's checks of the edge types themselves stay on.
      "@graphql-eslint/relay-edge-types": ["error", { listTypeCanWrapOnlyEdgeType: false }],
    },
  },
];
