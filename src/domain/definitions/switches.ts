// Options and flags ("switches") of a command node share one namespace with the globals the
// node declares and the globals it inherits from its ancestors: long names and aliases are
// unique, short names are one character and unique.
import type { Issue, Path } from "./issues.js";
import { kebabIssues } from "./names.js";
import type { CommandNode, Flag, Option } from "./schema.js";
import type { CommandTree } from "./tree.js";

interface SwitchAt {
  kind: "option" | "flag";
  path: Path;
  item: Option | Flag;
}

/**
 * Names declared at one level (a node's globals, or its own body switches), chained to the
 * enclosing level rather than copied, so deep trees stay cheap.
 */
class Namespace {
  readonly longs = new Set<string>();
  /** Long names only (no aliases): what constraints may refer to. */
  readonly names = new Set<string>();
  readonly shorts = new Set<string>();

  constructor(readonly outer: Namespace | undefined) {}

  has(set: "longs" | "names" | "shorts", name: string): boolean {
    return this[set].has(name) || (this.outer?.has(set, name) ?? false);
  }

  claim({ kind, path, item }: SwitchAt): Issue[] {
    const longs = [{ path: [...path, "long"], name: item.long }, ...item.aliases.map((name, i) => ({ path: [...path, "aliases", i], name }))];
    const issues = kebabIssues(longs);
    for (const { path: where, name } of longs) {
      if (this.has("longs", name)) issues.push({ path: where, message: `duplicate ${kind} "--${name}"` });
      this.longs.add(name);
    }
    this.names.add(item.long);
    const short = item.short;
    if (short === null) return issues;
    const where = [...path, "short"];
    if ([...short].length !== 1) {
      issues.push({ path: where, message: `${JSON.stringify(short)} is not a single character` });
    } else if (this.has("shorts", short)) {
      issues.push({ path: where, message: `duplicate short ${kind} "-${short}"` });
    } else {
      this.shorts.add(short);
    }
    return issues;
  }
}

function switchesOf(options: readonly Option[], flags: readonly Flag[], at: Path): SwitchAt[] {
  return [
    ...options.map((item, i) => ({ kind: "option" as const, path: [...at, "options", i], item })),
    ...flags.map((item, i) => ({ kind: "flag" as const, path: [...at, "flags", i], item })),
  ];
}

export interface NodeSwitches {
  issues: Issue[];
  /** Whether `name` is the long name of an option or flag in scope at the node. */
  hasSwitch: (name: string) => boolean;
}

/** Switch issues and scope of every node; unreachable nodes inherit nothing. */
export function nodeSwitches(nodes: readonly CommandNode[], tree: CommandTree, nodesAt: Path): NodeSwitches[] {
  const result = new Array<NodeSwitches>(nodes.length);
  const exported = new Array<Namespace | undefined>(nodes.length);
  const visit = (index: number) => {
    const { globals, body } = nodes[index]!;
    const at = [...nodesAt, index];
    const parent = tree.parent[index];
    const inherited = parent === undefined ? undefined : exported[parent];
    const globalScope = new Namespace(inherited);
    const bodyScope = new Namespace(globalScope);
    const issues = [
      ...switchesOf(globals.options, globals.flags, [...at, "globals"]).flatMap((s) => globalScope.claim(s)),
      ...switchesOf(body.options, body.flags, [...at, "body"]).flatMap((s) => bodyScope.claim(s)),
    ];
    // Levels without globals are skipped so lookups stay short in deep trees.
    exported[index] = globals.options.length + globals.flags.length === 0 ? inherited : globalScope;
    result[index] = { issues, hasSwitch: (name) => bodyScope.has("names", name) };
  };
  // Parents before children, so each node finds its parent's exported namespace.
  if (nodes.length > 0) {
    const queue = [0];
    for (let head = 0; head < queue.length; head++) {
      visit(queue[head]!);
      queue.push(...tree.children[queue[head]!]!);
    }
  }
  nodes.forEach((_, index) => {
    if (result[index] === undefined) visit(index);
  });
  return result;
}
