// The command tree of a surface: node 0 is the root and `subcommands` are indices into `nodes`.
// Builds the tree breadth-first from the root (so the first listing closest to the root wins)
// and reports every index that breaks it.
import type { Issue, Path } from "./issues.js";

export interface CommandTree {
  /** parent[i] for every node reached from the root except the root itself. */
  parent: ReadonlyArray<number | undefined>;
  /** Tree children of each node, in listing order. */
  children: ReadonlyArray<readonly number[]>;
  issues: Issue[];
}

interface Edge {
  from: number;
  position: number;
  to: number;
}

export function commandTree(nodes: ReadonlyArray<{ subcommands: readonly number[] }>, at: Path): CommandTree {
  const count = nodes.length;
  const parent: Array<number | undefined> = new Array(count).fill(undefined);
  const children: number[][] = nodes.map(() => []);
  const issues: Issue[] = [];
  if (count === 0) {
    issues.push({ path: at, message: "the root node is required" });
    return { parent, children, issues };
  }

  const edges: Edge[][] = nodes.map(() => []);
  nodes.forEach(({ subcommands }, from) => {
    subcommands.forEach((to, position) => {
      const path = [...at, from, "subcommands", position];
      if (to < 0 || to >= count) issues.push({ path, message: `index ${to} out of range` });
      else if (to === from) issues.push({ path, message: `index ${to} is the node itself` });
      else edges[from]!.push({ from, position, to });
    });
  });

  const reached = new Array<boolean>(count).fill(false);
  reached[0] = true;
  const extraEdges: Edge[] = [];
  const queue = [0];
  for (let head = 0; head < queue.length; head++) {
    for (const edge of edges[queue[head]!]!) {
      if (reached[edge.to]) {
        extraEdges.push(edge);
      } else {
        reached[edge.to] = true;
        parent[edge.to] = edge.from;
        children[edge.from]!.push(edge.to);
        queue.push(edge.to);
      }
    }
  }

  const isAncestorOrSelf = ancestry(children);
  for (const { from, position, to } of extraEdges) {
    const path = [...at, from, "subcommands", position];
    issues.push(
      isAncestorOrSelf(to, from)
        ? { path, message: `index ${to} forms a cycle` }
        : { path, message: `node ${to} is already a subcommand of node ${parent[to]}` },
    );
  }
  reached.forEach((ok, node) => {
    if (!ok) issues.push({ path: [...at, node], message: "not reachable from the root" });
  });
  return { parent, children, issues };
}

/** Ancestor test in O(1) from pre/post-order numbers of the tree rooted at node 0. */
function ancestry(children: ReadonlyArray<readonly number[]>): (a: number, b: number) => boolean {
  const enter = new Array<number>(children.length).fill(-1);
  const leave = new Array<number>(children.length).fill(-1);
  let clock = 0;
  // Iterative depth-first walk: definitions may be deep enough to exhaust the call stack.
  const stack: Array<{ node: number; next: number }> = [{ node: 0, next: 0 }];
  enter[0] = clock++;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const child = children[top.node]![top.next++];
    if (child === undefined) {
      leave[top.node] = clock++;
      stack.pop();
    } else {
      enter[child] = clock++;
      stack.push({ node: child, next: 0 });
    }
  }
  return (a, b) => enter[a]! <= enter[b]! && leave[b]! <= leave[a]!;
}
