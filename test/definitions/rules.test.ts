import { describe, expect, it } from "vitest";
import { typeDef } from "../../src/demo/definitions/build.js";
import { type Draft, issuesAfter, NODES, PRESENTED } from "./helpers.js";

const nodes = (d: Draft) => d.scope.value.presented.commands.nodes;

// git-lite: node 0 is the root (globals --git-dir --work-tree -C/--directory -v/--verbose
// -q/--quiet --pager) with subcommands 1 status, 2 log, 3 commit, 4 branch.
const rows: Array<[rule: string, mutate: (d: Draft) => void, issues: string[]]> = [
  // node 0 is the root and subcommands form a tree
  ["subcommand index out of range", (d) => nodes(d)[0].subcommands.push(9), [`${NODES}[0].subcommands[4]: index 9 out of range`]],
  ["negative subcommand index", (d) => (nodes(d)[1].subcommands = [-1]), [`${NODES}[1].subcommands[0]: index -1 out of range`]],
  ["node listing itself", (d) => (nodes(d)[1].subcommands = [1]), [`${NODES}[1].subcommands[0]: index 1 is the node itself`]],
  ["cycle back to the root", (d) => (nodes(d)[4].subcommands = [0]), [`${NODES}[4].subcommands[0]: index 0 forms a cycle`]],
  [
    "cycle below the root",
    (d) => {
      nodes(d)[0].subcommands = [1, 2, 4];
      nodes(d)[1].subcommands = [3];
      nodes(d)[3].subcommands = [1];
    },
    [`${NODES}[3].subcommands[0]: index 1 forms a cycle`],
  ],
  ["unreachable node", (d) => (nodes(d)[0].subcommands = [1, 2, 3]), [`${NODES}[4]: not reachable from the root`]],
  ["node reached twice", (d) => (nodes(d)[1].subcommands = [2]), [`${NODES}[1].subcommands[0]: node 2 is already a subcommand of node 0`]],
  ["no root node", (d) => (d.scope.value.presented.commands.nodes = []), [`${PRESENTED}.commands.nodes: the root node is required`]],
  // names and aliases lower-kebab-case and unique
  ["definition name not kebab-case", (d) => (d.name = "GitLite"), [`definition.name: "GitLite" is not lower-kebab-case`]],
  // the presented surface carries the release's version; the expected surface may differ
  [
    "presented version other than the definition's",
    (d) => (d.scope.value.presented.version = "2.44.0"),
    [`${PRESENTED}.version: "2.44.0" differs from the definition's version "2.43.0"; a release presents its own version`],
  ],
  ["definition alias repeating the name", (d) => (d.aliases = ["gl", "git-lite"]), [`definition.aliases[1]: duplicate alias "git-lite"`]],
  ["command alias not kebab-case", (d) => (nodes(d)[1].aliases = ["St"]), [`${NODES}[1].aliases[0]: "St" is not lower-kebab-case`]],
  ["command alias repeating its name", (d) => (nodes(d)[1].aliases = ["status"]), [`${NODES}[1].aliases[0]: duplicate alias "status"`]],
  ["sibling commands with one name", (d) => (nodes(d)[2].name = "status"), [`${NODES}[2].name: duplicate command "status"`]],
  ["sibling alias taking a sibling's alias", (d) => (nodes(d)[4].aliases = ["st"]), [`${NODES}[4].aliases[0]: duplicate command "st"`]],
  // option/flag long names unique per node including globals, shorts single and unique
  [
    "option named like an inherited global",
    (d) => (nodes(d)[1].body.options[0].long = "verbose"),
    [`${NODES}[1].body.options[0].long: duplicate option "--verbose"`],
  ],
  [
    "flag named like a global of the same node",
    (d) => nodes(d)[0].body.flags.push({ ...nodes(d)[0].globals.flags[1], short: null }),
    [`${NODES}[0].body.flags[0].long: duplicate flag "--quiet"`],
  ],
  [
    "option alias taken by another option",
    (d) => (nodes(d)[2].body.options[2].aliases = ["after"]),
    [`${NODES}[2].body.options[2].aliases[0]: duplicate option "--after"`],
  ],
  [
    "option long name not kebab-case",
    (d) => (nodes(d)[2].body.options[0].long = "--max-count"),
    [`${NODES}[2].body.options[0].long: "--max-count" is not lower-kebab-case`],
  ],
  ["short name taken by an inherited global", (d) => (nodes(d)[3].body.flags[0].short = "v"), [`${NODES}[3].body.flags[0].short: duplicate short flag "-v"`]],
  ["short name of two characters", (d) => (nodes(d)[2].body.options[0].short = "nn"), [`${NODES}[2].body.options[0].short: "nn" is not a single character`]],
  ["empty short name", (d) => (nodes(d)[0].globals.options[2].short = ""), [`${NODES}[0].globals.options[2].short: "" is not a single character`]],
  // positionals, errors and formatters
  [
    "duplicate positional name",
    (d) => (nodes(d)[4].body.positionals.fixed[1].name = "branch-name"),
    [`${NODES}[4].body.positionals.fixed[1].name: duplicate positional "branch-name"`],
  ],
  [
    "duplicate error name",
    (d) => (nodes(d)[3].body.errors[1].name = "not-a-repository"),
    [`${NODES}[3].body.errors[1].name: duplicate error "not-a-repository"`],
  ],
  [
    "duplicate formatter name",
    (d) => (nodes(d)[1].body.result.formatters[1].name = "table"),
    [`${NODES}[1].body.result.formatters[1].name: duplicate formatter "table"`],
  ],
  // constraints refer to existing option/flag names
  [
    "constraint naming an unknown option",
    (d) => (nodes(d)[2].body.constraints[0].value[1].value = "untill"),
    [`${NODES}[2].body.constraints[0].value[1].value: "untill" is not an option or flag of this command`],
  ],
  [
    "constraint naming another command's option",
    (d) => nodes(d)[3].body.constraints.push({ kind: "requires-all", value: [{ kind: "present", value: "since" }] }),
    [`${NODES}[3].body.constraints[0].value[0].value: "since" is not an option or flag of this command`],
  ],
  // tail min <= max
  [
    "tail min greater than max",
    (d) => Object.assign(nodes(d)[1].body.positionals.tail, { min: 3, max: 1 }),
    [`${NODES}[1].body.positionals.tail.min: min 3 is greater than max 1`],
  ],
  ["negative tail min", (d) => (nodes(d)[1].body.positionals.tail.min = -1), [`${NODES}[1].body.positionals.tail.min: min -1 is negative`]],
  // error exit codes 1-255
  ["exit code 0", (d) => (nodes(d)[3].body.errors[1].exit_code = 0), [`${NODES}[3].body.errors[1].exit_code: exit code 0 is outside 1..255`]],
  ["exit code 256", (d) => (nodes(d)[3].body.errors[1].exit_code = 256), [`${NODES}[3].body.errors[1].exit_code: exit code 256 is outside 1..255`]],
  // type refs resolve in their schema's defs, def ids unique
  [
    "type ref in a command to a missing def",
    (d) => (nodes(d)[4].body.positionals.fixed[0].type_.value.id = "branch"),
    [`${NODES}[4].body.positionals.fixed[0].type_.value.id: unknown type id "branch"`],
  ],
  [
    "type ref in a def body to a missing def",
    (d) => (d.scope.value.presented.schema.defs[11].body.value.id = "commits"),
    [`${PRESENTED}.schema.defs[11].body.value.id: unknown type id "commits"`],
  ],
  [
    "parameter_schema ref to a def of the presented schema",
    (d) => (d.scope.value.parameter_schema.root.value.id = "commit"),
    [`definition.scope.value.parameter_schema.root.value.id: unknown type id "commit"`],
  ],
  [
    "expected surface refs resolved in the expected schema only",
    (d) => d.scope.value.expected.schema.defs.splice(10, 1),
    [
      `definition.scope.value.expected.schema.defs[10].body.value.id: unknown type id "commit"`,
      `definition.scope.value.expected.commands.nodes[3].body.result.type_.value.id: unknown type id "commit"`,
    ],
  ],
  [
    "duplicate def id",
    (d) => d.scope.value.presented.schema.defs.push(typeDef("commit", "CommitV2", "json")),
    [`${PRESENTED}.schema.defs[14].id: duplicate type id "commit"`],
  ],
  // result.default_formatter names one of formatters
  [
    "unknown default formatter",
    (d) => (nodes(d)[1].body.result.default_formatter = "xml"),
    [`${NODES}[1].body.result.default_formatter: "xml" is not one of the formatters`],
  ],
  [
    "default formatter without formatters",
    (d) => (nodes(d)[0].body.result.default_formatter = "table"),
    [`${NODES}[0].body.result.default_formatter: "table" is not one of the formatters (none declared)`],
  ],
];

describe("validateDefinition: definition rules", () => {
  it.each(rows)("rejects %s", (_, mutate, issues) => {
    expect(issuesAfter(mutate)).toEqual(issues);
  });

  it("accepts an expected surface of another version than the release's (the tool underneath)", () => {
    expect(issuesAfter((d) => (d.scope.value.expected.version = "2.44.0"))).toEqual([]);
  });

  it("reports every rule broken, in both surfaces", () => {
    const issues = issuesAfter((d) => {
      d.aliases = ["Git"];
      nodes(d)[4].subcommands = [0, 7];
      nodes(d)[2].body.flags[0].short = "q";
      nodes(d)[3].body.errors[0].exit_code = 300;
      d.scope.value.expected.commands.nodes[1].body.result.default_formatter = "";
      d.scope.value.parameter_schema.defs.push(typeDef("remote-url", "RemoteUrl", "uri"));
    });
    expect(issues).toEqual([
      `definition.aliases[0]: "Git" is not lower-kebab-case`,
      `${NODES}[4].subcommands[1]: index 7 out of range`,
      `${NODES}[4].subcommands[0]: index 0 forms a cycle`,
      `${NODES}[2].body.flags[0].short: duplicate short flag "-q"`,
      `${NODES}[3].body.errors[0].exit_code: exit code 300 is outside 1..255`,
      `definition.scope.value.expected.commands.nodes[1].body.result.default_formatter: "" is not one of the formatters`,
      `definition.scope.value.parameter_schema.defs[7].id: duplicate type id "remote-url"`,
      `definition.scope.value.parameter_schema.defs[7].body.value.id: unknown type id "uri"`,
    ]);
  });

  it("locates issues under the publication's base path", () => {
    const issues = issuesAfter((d) => {
      nodes(d)[0].subcommands = [1, 2, 3];
      nodes(d)[3].subcommands = [4, 9];
    }, "publications[0].definition");
    expect(issues).toEqual(["publications[0].definition.scope.value.presented.commands.nodes[3].subcommands[1]: index 9 out of range"]);
  });
});
