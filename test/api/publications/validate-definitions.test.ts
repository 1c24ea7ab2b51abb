// Operation 3 with invalid definitions: every structural issue and every definition rule of
// semantics.md, sent over HTTP, answered as 400 REQUEST_INVALID with the issue's exact location
// under `publications[i].definition`.
import { afterAll, beforeAll, expect, it } from "vitest";
import { typeDef } from "../../../src/demo/definitions/build.js";
import { gitLite, jsonFormat } from "../../fixtures/definitions/index.js";
import { describeEachDatabase, startTestService, type TestService } from "../../helpers/service.js";
import { createWorld, type World } from "../../helpers/world.js";
import { body, paths, publication, sourceFor } from "./support.js";

type Draft = any;

const nodes = (d: Draft) => d.scope.value.presented.commands.nodes;
const PRESENTED = ".scope.value.presented";
const NODES = `${PRESENTED}.commands.nodes`;

// git-lite: node 0 is the root (globals --git-dir --work-tree -C/--directory -v/--verbose -q/--quiet
// --pager) with subcommands 1 status, 2 log, 3 commit, 4 branch. Each row breaks it in one way;
// the issues are written relative to the definition, e.g. ".name: required".
const ROWS: Array<[rule: string, mutate: (d: Draft) => void, issues: string[]]> = [
  // structure
  ["an unknown field at the top", (d) => (d.extra = 1), [`: unknown field "extra"`]],
  [
    "an unknown field in a nested doc",
    (d) => (nodes(d)[0].globals.options[0].doc.summery = "x"),
    [`${NODES}[0].globals.options[0].doc: unknown field "summery"`],
  ],
  ["a missing version", (d) => delete d.version, [".version: required"]],
  ["a missing command body", (d) => delete nodes(d)[1].body, [`${NODES}[1].body: required`]],
  ["a missing member of the expected surface", (d) => delete d.scope.value.expected.commands, [".scope.value.expected.commands: required"]],
  ["a numeric version", (d) => (d.version = 2), [".version: expected string, got number"]],
  ["aliases that are not an array", (d) => (d.aliases = "gl"), [".aliases: expected array, got string"]],
  [
    "requires_filesystem as a string",
    (d) => (d.scope.value.presented.requires_filesystem = "yes"),
    [`${PRESENTED}.requires_filesystem: expected boolean, got string`],
  ],
  ["a subcommand index given as a string", (d) => (nodes(d)[0].subcommands[0] = "1"), [`${NODES}[0].subcommands[0]: expected integer, got string`]],
  ["a fractional exit code", (d) => (nodes(d)[3].body.errors[1].exit_code = 1.5), [`${NODES}[3].body.errors[1].exit_code: expected integer, got 1.5`]],
  ["a numeric short name", (d) => (nodes(d)[1].body.flags[0].short = 5), [`${NODES}[1].body.flags[0].short: expected string or null, got number`]],
  ["a scope kind other than monomorphic", (d) => (d.scope.kind = "polymorphic"), [`.scope.kind: expected "monomorphic", got "polymorphic"`]],
  ["a type kind other than ref", (d) => (nodes(d)[1].body.result.type_.kind = "struct"), [`${NODES}[1].body.result.type_.kind: expected "ref", got "struct"`]],
  [
    "an option shape other than scalar",
    (d) => (nodes(d)[2].body.options[0].shape.kind = "list"),
    [`${NODES}[2].body.options[0].shape.kind: expected "scalar", got "list"`],
  ],
  [
    "a flag shape other than bool-flag",
    (d) => (nodes(d)[0].globals.flags[0].shape.kind = "count"),
    [`${NODES}[0].globals.flags[0].shape.kind: expected "bool-flag", got "count"`],
  ],
  [
    "a constraint kind other than requires-all",
    (d) => (nodes(d)[2].body.constraints[0].kind = "requires-any"),
    [`${NODES}[2].body.constraints[0].kind: expected "requires-all", got "requires-any"`],
  ],
  [
    "an error kind other than usage-error",
    (d) => (nodes(d)[3].body.errors[0].kind = "runtime-error"),
    [`${NODES}[3].body.errors[0].kind: expected "usage-error", got "runtime-error"`],
  ],
  [
    "a role tag other than multimodal",
    (d) => (d.scope.value.presented.schema.defs[5].body.value.metadata.role.tag = "text"),
    [`${PRESENTED}.schema.defs[5].body.value.metadata.role.tag: expected "multimodal", got "text"`],
  ],
  // node 0 is the root and subcommands form a tree
  ["a subcommand index out of range", (d) => nodes(d)[0].subcommands.push(9), [`${NODES}[0].subcommands[4]: index 9 out of range`]],
  ["a negative subcommand index", (d) => (nodes(d)[1].subcommands = [-1]), [`${NODES}[1].subcommands[0]: index -1 out of range`]],
  ["a node listing itself", (d) => (nodes(d)[1].subcommands = [1]), [`${NODES}[1].subcommands[0]: index 1 is the node itself`]],
  ["a cycle back to the root", (d) => (nodes(d)[4].subcommands = [0]), [`${NODES}[4].subcommands[0]: index 0 forms a cycle`]],
  ["an unreachable node", (d) => (nodes(d)[0].subcommands = [1, 2, 3]), [`${NODES}[4]: not reachable from the root`]],
  ["a node reached twice", (d) => (nodes(d)[1].subcommands = [2]), [`${NODES}[1].subcommands[0]: node 2 is already a subcommand of node 0`]],
  ["no root node", (d) => (d.scope.value.presented.commands.nodes = []), [`${PRESENTED}.commands.nodes: the root node is required`]],
  // names and aliases lower-kebab-case and unique
  ["a definition name that is not kebab-case", (d) => (d.name = "GitLite"), [`.name: "GitLite" is not lower-kebab-case`]],
  ["a definition alias repeating the name", (d) => (d.aliases = ["gl", "git-lite"]), [`.aliases[1]: duplicate alias "git-lite"`]],
  ["a command alias that is not kebab-case", (d) => (nodes(d)[1].aliases = ["St"]), [`${NODES}[1].aliases[0]: "St" is not lower-kebab-case`]],
  ["sibling commands with one name", (d) => (nodes(d)[2].name = "status"), [`${NODES}[2].name: duplicate command "status"`]],
  // option/flag long names unique per node including globals; short names single and unique
  [
    "an option named like an inherited global",
    (d) => (nodes(d)[1].body.options[0].long = "verbose"),
    [`${NODES}[1].body.options[0].long: duplicate option "--verbose"`],
  ],
  [
    "an option alias taken by another option",
    (d) => (nodes(d)[2].body.options[2].aliases = ["after"]),
    [`${NODES}[2].body.options[2].aliases[0]: duplicate option "--after"`],
  ],
  ["a short name taken by an inherited global", (d) => (nodes(d)[3].body.flags[0].short = "v"), [`${NODES}[3].body.flags[0].short: duplicate short flag "-v"`]],
  ["a short name of two characters", (d) => (nodes(d)[2].body.options[0].short = "nn"), [`${NODES}[2].body.options[0].short: "nn" is not a single character`]],
  // constraints, tails, exit codes
  [
    "a constraint naming an unknown option",
    (d) => (nodes(d)[2].body.constraints[0].value[1].value = "untill"),
    [`${NODES}[2].body.constraints[0].value[1].value: "untill" is not an option or flag of this command`],
  ],
  [
    "a tail whose min exceeds its max",
    (d) => Object.assign(nodes(d)[1].body.positionals.tail, { min: 3, max: 1 }),
    [`${NODES}[1].body.positionals.tail.min: min 3 is greater than max 1`],
  ],
  ["exit code 0", (d) => (nodes(d)[3].body.errors[1].exit_code = 0), [`${NODES}[3].body.errors[1].exit_code: exit code 0 is outside 1..255`]],
  ["exit code 256", (d) => (nodes(d)[3].body.errors[1].exit_code = 256), [`${NODES}[3].body.errors[1].exit_code: exit code 256 is outside 1..255`]],
  // type refs resolve in their schema's defs; def ids unique; default formatter declared
  [
    "a type ref to a missing def",
    (d) => (nodes(d)[4].body.positionals.fixed[0].type_.value.id = "branch"),
    [`${NODES}[4].body.positionals.fixed[0].type_.value.id: unknown type id "branch"`],
  ],
  [
    "a parameter_schema ref to a def of another schema",
    (d) => (d.scope.value.parameter_schema.root.value.id = "commit"),
    [`.scope.value.parameter_schema.root.value.id: unknown type id "commit"`],
  ],
  [
    "a duplicate def id",
    (d) => d.scope.value.presented.schema.defs.push(typeDef("commit", "CommitV2", "json")),
    [`${PRESENTED}.schema.defs[14].id: duplicate type id "commit"`],
  ],
  [
    "an unknown default formatter",
    (d) => (nodes(d)[1].body.result.default_formatter = "xml"),
    [`${NODES}[1].body.result.default_formatter: "xml" is not one of the formatters`],
  ],
  [
    "expected surface refs resolved in the expected schema only",
    (d) => d.scope.value.expected.schema.defs.splice(10, 1),
    [
      `.scope.value.expected.schema.defs[10].body.value.id: unknown type id "commit"`,
      `.scope.value.expected.commands.nodes[3].body.result.type_.value.id: unknown type id "commit"`,
    ],
  ],
];

/** The broken definition goes to publications[slot]; a valid json-format fills the other slot. */
const CASES = ROWS.map(([rule, mutate, issues], row) => ({ rule, mutate, issues, slot: row % 2, at: `publications[${row % 2}].definition` }));

describeEachDatabase("POST /v1/envs/{environment_id}/tool-middlewares/validate: invalid definitions", (provider) => {
  let service: TestService;
  let world: World;
  const validate = (request: unknown) => world.owner.http.post(paths.validate(world.environment.id), request);

  beforeAll(async () => {
    service = await startTestService(provider);
    world = await createWorld(service);
  });
  afterAll(() => service?.stopAndDrop());

  it.each(CASES)("answers 400 REQUEST_INVALID locating $rule at $at", async ({ mutate, issues, slot, at }) => {
    const draft: Draft = structuredClone(gitLite());
    mutate(draft);
    const broken = { name: typeof draft.name === "string" ? draft.name : "git-lite", definition: draft, source: sourceFor("git-lite") };
    const publications = slot === 0 ? [broken, publication(jsonFormat())] : [publication(jsonFormat()), broken];
    const result = await validate(body({ publications }));
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ code: "REQUEST_INVALID", errors: issues.map((issue) => `${at}${issue}`) });
  });

  it("lists every issue of every publication in one answer", async () => {
    const first: Draft = structuredClone(gitLite());
    delete first.version;
    nodes(first)[4].subcommands = [0, 7];
    const second: Draft = structuredClone(gitLite("git-lite-copy", "1.0.0"));
    nodes(second)[3].body.errors[0].exit_code = 300;
    const result = await validate(
      body({
        publications: [
          { name: "git-lite", definition: first },
          publication(jsonFormat()),
          { name: "git-lite-copy", definition: second },
          { name: "text", definition: "hello" },
        ],
      }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      code: "REQUEST_INVALID",
      errors: [
        "publications[0].definition.version: required",
        `publications[2].definition${NODES}[3].body.errors[0].exit_code: exit code 300 is outside 1..255`,
        "publications[3].definition: expected object, got string",
      ],
    });
  });

  it("locates source issues under publications[i].source", async () => {
    const source = { kind: "git", componentId: sourceFor("x").componentId, componentRevision: -1, componentName: " " };
    const result = await validate(body({ publications: [publication(jsonFormat()), { ...publication(gitLite()), source }] }));
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      code: "REQUEST_INVALID",
      errors: [
        'publications[1].source.kind: expected "component", got "git"',
        "publications[1].source.componentRevision: expected an integer ≥ 0, got -1",
        "publications[1].source.componentName: must not be empty",
      ],
    });
  });

  it("answers 400 REQUEST_INVALID for a source whose componentId is not a UUID", async () => {
    const result = await validate(body({ publications: [{ ...publication(gitLite()), source: { ...sourceFor("git-lite"), componentId: "component-1" } }] }));
    expect(result.status).toBe(400);
    expect(result.body.code).toBe("REQUEST_INVALID");
    expect(result.body.errors.join("\n")).toContain("publications[0].source.componentId");
  });
});
