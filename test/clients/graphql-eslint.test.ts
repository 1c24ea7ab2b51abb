// graphql-eslint's schema rules, recommended and Relay, on schema.graphql: the check
// `npm run lint:schema` runs, with eslint.config.js, so that CI runs it too.
import graphql from "@graphql-eslint/eslint-plugin";
import { ESLint, type Linter } from "eslint";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PROJECT_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const eslint = new ESLint({ cwd: PROJECT_ROOT });

const severity = (entry: Linter.RuleEntry | undefined) => (Array.isArray(entry) ? entry[0] : entry);

describe("schema.graphql under graphql-eslint", () => {
  it("turns on every rule of the schema-recommended and schema-relay configs", async () => {
    const { rules } = await eslint.calculateConfigForFile("schema.graphql");
    const expected = Object.keys({ ...graphql.configs["flat/schema-recommended"].rules, ...graphql.configs["flat/schema-relay"].rules });
    expect(expected.filter((rule) => ![2, "error"].includes(severity(rules?.[rule]) as string | number))).toEqual([]);
  });

  it("passes them all", async () => {
    const [result] = await eslint.lintFiles(["schema.graphql"]);
    const problems = result!.messages.map((message) => `${message.line}:${message.column} ${message.ruleId}: ${message.message}`);
    expect(problems).toEqual([]);
  });
});
