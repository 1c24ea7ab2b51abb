import { describe, expect, it } from "vitest";
import { validateDefinition } from "../../src/domain/definitions/index.js";
import { type Draft, issuesAfter, NODES, PRESENTED } from "./helpers.js";

// Each row breaks git-lite in one way and names the one issue expected.
const rows: Array<[rule: string, mutate: (d: Draft) => void, issue: string]> = [
  ["unknown field at the top", (d) => (d.extra = 1), `definition: unknown field "extra"`],
  [
    "unknown field in a nested doc",
    (d) => (d.scope.value.presented.commands.nodes[0].globals.options[0].doc.summery = "x"),
    `${NODES}[0].globals.options[0].doc: unknown field "summery"`,
  ],
  ["missing name", (d) => delete d.name, "definition.name: required"],
  ["missing command body", (d) => delete d.scope.value.presented.commands.nodes[1].body, `${NODES}[1].body: required`],
  ["missing doc summary", (d) => delete d.doc.summary, "definition.doc.summary: required"],
  [
    "missing positional default",
    (d) => delete d.scope.value.presented.commands.nodes[2].body.positionals.fixed[0].default,
    `${NODES}[2].body.positionals.fixed[0].default: required`,
  ],
  [
    "positional default nested too deep",
    (d) => (d.scope.value.presented.commands.nodes[2].body.positionals.fixed[0].default = JSON.parse("[".repeat(65) + "]".repeat(65))),
    `${NODES}[2].body.positionals.fixed[0].default: expected a JSON value nested at most 64 deep, got array`,
  ],
  ["missing member of the expected surface", (d) => delete d.scope.value.expected.commands, "definition.scope.value.expected.commands: required"],
  ["version is a number", (d) => (d.version = 2), "definition.version: expected string, got number"],
  ["name is null", (d) => (d.name = null), "definition.name: expected string, got null"],
  ["aliases is not an array", (d) => (d.aliases = "gl"), "definition.aliases: expected array, got string"],
  [
    "requires_filesystem is a string",
    (d) => (d.scope.value.presented.requires_filesystem = "yes"),
    `${PRESENTED}.requires_filesystem: expected boolean, got string`,
  ],
  [
    "subcommand index is a string",
    (d) => (d.scope.value.presented.commands.nodes[0].subcommands[0] = "1"),
    `${NODES}[0].subcommands[0]: expected integer, got string`,
  ],
  [
    "exit code is fractional",
    (d) => (d.scope.value.presented.commands.nodes[3].body.errors[1].exit_code = 1.5),
    `${NODES}[3].body.errors[1].exit_code: expected integer, got 1.5`,
  ],
  [
    "short is a number",
    (d) => (d.scope.value.presented.commands.nodes[1].body.flags[0].short = 5),
    `${NODES}[1].body.flags[0].short: expected string or null, got number`,
  ],
  ["scope kind other than monomorphic", (d) => (d.scope.kind = "polymorphic"), `definition.scope.kind: expected "monomorphic", got "polymorphic"`],
  [
    "type kind other than ref",
    (d) => (d.scope.value.presented.commands.nodes[1].body.result.type_.kind = "struct"),
    `${NODES}[1].body.result.type_.kind: expected "ref", got "struct"`,
  ],
  [
    "option shape kind other than scalar",
    (d) => (d.scope.value.presented.commands.nodes[2].body.options[0].shape.kind = "list"),
    `${NODES}[2].body.options[0].shape.kind: expected "scalar", got "list"`,
  ],
  [
    "option default kind other than bool",
    (d) => (d.scope.value.presented.commands.nodes[2].body.options[0].default.kind = "string"),
    `${NODES}[2].body.options[0].default.kind: expected "bool", got "string"`,
  ],
  [
    "flag shape kind other than bool-flag",
    (d) => (d.scope.value.presented.commands.nodes[0].globals.flags[0].shape.kind = "count"),
    `${NODES}[0].globals.flags[0].shape.kind: expected "bool-flag", got "count"`,
  ],
  [
    "constraint kind other than requires-all",
    (d) => (d.scope.value.presented.commands.nodes[2].body.constraints[0].kind = "requires-any"),
    `${NODES}[2].body.constraints[0].kind: expected "requires-all", got "requires-any"`,
  ],
  [
    "constraint value kind other than present",
    (d) => (d.scope.value.presented.commands.nodes[2].body.constraints[0].value[0].kind = "absent"),
    `${NODES}[2].body.constraints[0].value[0].kind: expected "present", got "absent"`,
  ],
  [
    "error kind other than usage-error",
    (d) => (d.scope.value.presented.commands.nodes[3].body.errors[0].kind = "runtime-error"),
    `${NODES}[3].body.errors[0].kind: expected "usage-error", got "runtime-error"`,
  ],
  [
    "role tag other than multimodal",
    (d) => (d.scope.value.presented.schema.defs[5].body.value.metadata.role.tag = "text"),
    `${PRESENTED}.schema.defs[5].body.value.metadata.role.tag: expected "multimodal", got "text"`,
  ],
];

describe("validateDefinition: structure", () => {
  it.each(rows)("rejects %s", (_, mutate, issue) => {
    expect(issuesAfter(mutate)).toEqual([issue]);
  });

  it("rejects a definition that is not an object", () => {
    expect(validateDefinition("hello", "definition")).toEqual({
      ok: false,
      issues: ["definition: expected object, got string"],
    });
  });

  it("reports every structural issue at once", () => {
    const issues = issuesAfter((d) => {
      delete d.name;
      d.aliases = [1, "ok", null];
      d.doc.extra = true;
      d.doc.lang = "en";
      d.scope.value.expected.commands.nodes[4].body.annotations.read_only = "no";
      d.scope.value.parameter_schema.root.kind = "union";
    });
    expect(issues).toEqual([
      "definition.name: required",
      "definition.aliases[0]: expected string, got number",
      "definition.aliases[2]: expected string, got null",
      'definition.doc: unknown field "extra"',
      'definition.doc: unknown field "lang"',
      "definition.scope.value.expected.commands.nodes[4].body.annotations.read_only: expected boolean, got string",
      'definition.scope.value.parameter_schema.root.kind: expected "ref", got "union"',
    ]);
  });

  it("does not run definition rules while the structure is invalid", () => {
    const issues = issuesAfter((d) => {
      d.name = "Not Kebab";
      d.version = 1;
    });
    expect(issues).toEqual(["definition.version: expected string, got number"]);
  });

  it("builds paths from the base path given", () => {
    expect(issuesAfter((d) => delete d.version, "publications[0].definition")).toEqual(["publications[0].definition.version: required"]);
    expect(issuesAfter((d) => delete d.version, "")).toEqual(["version: required"]);
    expect(validateDefinition(null, "")).toEqual({ ok: false, issues: ["(root): expected object, got null"] });
  });
});
