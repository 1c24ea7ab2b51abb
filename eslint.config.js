// ESLint checks two things (`npm run lint`, run by `npm test`):
// - schema.graphql with graphql-eslint's schema rules, recommended and Relay, every one of them on
//   (`npm run lint:schema` checks it alone; test/clients/graphql-eslint.test.ts runs it in CI). Two
//   rules take options, each for the reason beside it.
// - the TypeScript of src/, test/, bench/ and scripts/ with typescript-eslint, type-aware (the project
//   service reads tsconfig.json, which includes all four), and the plain JavaScript (scripts/*.mjs,
//   bin/, this file) without type information.
import js from "@eslint/js";
import graphql from "@graphql-eslint/eslint-plugin";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    // Generated code: the Prisma clients, the build, relay-compiler's artifacts, gql.tada's
    // introspection types and openapi-typescript's types of /openapi.json.
    ignores: [
      "dist/",
      "coverage/",
      "prisma/generated/",
      "src/db/generated/",
      "**/__generated__/",
      "**/generated/",
      "**/graphql-env.d.ts",
      "test/clients/openapi/schema.ts",
    ],
  },
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
      // An API token is identified by its `uuid` and is not a Node (tokens are never fetched
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
              "WebhookAttempt",
              "WebhookWithSecret",
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
  {
    files: ["**/*.ts", "**/*.mts", "**/*.js", "**/*.mjs"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          args: "after-used",
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrors: "all",
          caughtErrorsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ["**/*.ts", "**/*.mts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    // Tests read answers of the API they check as `any` on purpose (GraphQL `data` and JSON bodies
    // whose shape the assertions themselves check); src/, bench/ and scripts/ keep the rule.
    files: ["test/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
);
