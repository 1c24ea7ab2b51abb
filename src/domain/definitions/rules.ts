// Definition rules checked on every publication (docs/semantics.md, "Validate and apply"), run on a
// structurally valid definition. Both the presented and the expected surface are checked.
import { holdsNul, NUL_PROBLEM } from "../../db/text.js";
import type { Issue, Path } from "./issues.js";
import { duplicateIssues, kebabIssues, type NameAt } from "./names.js";
import type { CommandBody, CommandNode, MiddlewareDefinition, PresentedSurface } from "./schema.js";
import { nodeSwitches } from "./switches.js";
import { commandTree } from "./tree.js";
import { nodeTypeRefs, schemaIssues, unresolvedRefIssues } from "./type-refs.js";

export function definitionRuleIssues(definition: MiddlewareDefinition): Issue[] {
  const scope = ["scope", "value"];
  const names: NameAt[] = [{ path: ["name"], name: definition.name }, ...definition.aliases.map((name, i) => ({ path: ["aliases", i], name }))];
  return [
    ...kebabIssues(names),
    // The version is stored as a column of its own (the release's coordinate).
    ...(holdsNul(definition.version) ? [{ path: ["version"], message: NUL_PROBLEM }] : []),
    ...duplicateIssues(names, (name) => `duplicate alias ${JSON.stringify(name)}`),
    ...presentedVersionIssues(definition, [...scope, "presented", "version"]),
    ...surfaceIssues(definition.scope.value.presented, [...scope, "presented"]),
    ...surfaceIssues(definition.scope.value.expected, [...scope, "expected"]),
    ...schemaIssues(definition.scope.value.parameter_schema, [...scope, "parameter_schema"]).issues,
  ];
}

/**
 * The presented surface is what the release presents, so it carries the release's version. The
 * expected surface (the tool underneath) may be of another version: a middleware release can adapt
 * an older or newer tool.
 */
function presentedVersionIssues(definition: MiddlewareDefinition, at: Path): Issue[] {
  const presented = definition.scope.value.presented.version;
  if (presented === definition.version) return [];
  return [
    {
      path: at,
      message: `${JSON.stringify(presented)} differs from the definition's version ${JSON.stringify(definition.version)}; a release presents its own version`,
    },
  ];
}

function surfaceIssues(surface: PresentedSurface, at: Path): Issue[] {
  const nodes = surface.commands.nodes;
  const nodesAt = [...at, "commands", "nodes"];
  const tree = commandTree(nodes, nodesAt);
  const schema = schemaIssues(surface.schema, [...at, "schema"]);
  const switches = nodeSwitches(nodes, tree, nodesAt);
  const issues = [...tree.issues, ...schema.issues];
  nodes.forEach((node, index) => {
    const nodeAt = [...nodesAt, index];
    const { issues: switchIssues, hasSwitch } = switches[index]!;
    issues.push(
      ...commandNameIssues(node, nodeAt),
      ...switchIssues,
      ...bodyIssues(node.body, [...nodeAt, "body"], hasSwitch),
      ...unresolvedRefIssues(nodeTypeRefs(node, nodeAt), schema.ids),
      ...siblingIssues(nodes, tree.children[index]!, nodesAt),
    );
  });
  return issues;
}

function commandNames(node: CommandNode, at: Path): NameAt[] {
  return [{ path: [...at, "name"], name: node.name }, ...node.aliases.map((name, i) => ({ path: [...at, "aliases", i], name }))];
}

function commandNameIssues(node: CommandNode, at: Path): Issue[] {
  const names = commandNames(node, at);
  return [...kebabIssues(names), ...duplicateIssues(names, (name) => `duplicate alias ${JSON.stringify(name)}`)];
}

/** Names and aliases of the subcommands of one node must not collide with each other. */
function siblingIssues(nodes: readonly CommandNode[], children: readonly number[], nodesAt: Path): Issue[] {
  const taken = new Set<string>();
  return children.flatMap((child) => {
    // A node's own repeated alias is reported by commandNameIssues, not as a sibling clash.
    const own = new Map<string, NameAt>();
    for (const entry of commandNames(nodes[child]!, [...nodesAt, child])) {
      if (!own.has(entry.name)) own.set(entry.name, entry);
    }
    const issues = [...own.values()]
      .filter(({ name }) => taken.has(name))
      .map(({ path, name }) => ({ path, message: `duplicate command ${JSON.stringify(name)}` }));
    for (const name of own.keys()) taken.add(name);
    return issues;
  });
}

function bodyIssues(body: CommandBody, at: Path, hasSwitch: (name: string) => boolean): Issue[] {
  return [
    ...bodyNameIssues(body, at),
    ...constraintIssues(body, at, hasSwitch),
    ...tailIssues(body, at),
    ...exitCodeIssues(body, at),
    ...defaultFormatterIssues(body, at),
  ];
}

/** Positionals (fixed and tail), errors and formatters: each a kebab-case namespace. */
function bodyNameIssues(body: CommandBody, at: Path): Issue[] {
  const { fixed, tail } = body.positionals;
  const namespaces = {
    positional: [
      ...fixed.map((p, i) => ({ path: [...at, "positionals", "fixed", i, "name"], name: p.name })),
      { path: [...at, "positionals", "tail", "name"], name: tail.name },
    ],
    error: body.errors.map((e, i) => ({ path: [...at, "errors", i, "name"], name: e.name })),
    formatter: body.result.formatters.map((f, i) => ({ path: [...at, "result", "formatters", i, "name"], name: f.name })),
  };
  return Object.entries(namespaces).flatMap(([what, entries]) => [
    ...kebabIssues(entries),
    ...duplicateIssues(entries, (name) => `duplicate ${what} ${JSON.stringify(name)}`),
  ]);
}

function constraintIssues(body: CommandBody, at: Path, hasSwitch: (name: string) => boolean): Issue[] {
  return body.constraints.flatMap((constraint, c) =>
    constraint.value
      .map(({ value }, v) => ({ value, path: [...at, "constraints", c, "value", v, "value"] }))
      .filter(({ value }) => !hasSwitch(value))
      .map(({ value, path }) => ({ path, message: `${JSON.stringify(value)} is not an option or flag of this command` })),
  );
}

function tailIssues(body: CommandBody, at: Path): Issue[] {
  const { min, max } = body.positionals.tail;
  const path = [...at, "positionals", "tail", "min"];
  if (min < 0) return [{ path, message: `min ${min} is negative` }];
  if (min > max) return [{ path, message: `min ${min} is greater than max ${max}` }];
  return [];
}

function exitCodeIssues(body: CommandBody, at: Path): Issue[] {
  return body.errors
    .map((error, i) => ({ code: error.exit_code, path: [...at, "errors", i, "exit_code"] }))
    .filter(({ code }) => code < 1 || code > 255)
    .map(({ code, path }) => ({ path, message: `exit code ${code} is outside 1..255` }));
}

/** With no formatters the default must be empty; otherwise it must name one of them. */
function defaultFormatterIssues(body: CommandBody, at: Path): Issue[] {
  const { formatters, default_formatter: chosen } = body.result;
  const path = [...at, "result", "default_formatter"];
  if (formatters.length === 0) {
    return chosen === "" ? [] : [{ path, message: `${JSON.stringify(chosen)} is not one of the formatters (none declared)` }];
  }
  return formatters.some((f) => f.name === chosen) ? [] : [{ path, message: `${JSON.stringify(chosen)} is not one of the formatters` }];
}
