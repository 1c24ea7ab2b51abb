// The source's layers, checked on its imports (type-only imports excluded: they vanish at build):
// no module imports itself through others, and no arrow runs up the layers (the domain and the
// database know nothing of metrics, GraphQL or HTTP; metrics nothing of GraphQL or HTTP; GraphQL
// nothing of HTTP).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SOURCE = fileURLToPath(new URL("../../src", import.meta.url));
const LAYERS: [folder: string, rank: number][] = [
  ["domain", 0],
  ["db", 0],
  ["metrics", 1],
  ["graphql", 2],
  ["http", 3],
  ["cli", 4],
];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Each module's value imports of other modules in src (relative specifiers). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SOURCE)) {
    const text = readFileSync(file, "utf8");
    const targets: string[] = [];
    for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+"(\.[^"]+)"/gm)) {
      if (match[1]) continue;
      const target = path.resolve(path.dirname(file), match[2]!).replace(/\.js$/, ".ts");
      if (!target.includes(`${path.sep}generated${path.sep}`)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

const relative = (file: string) => path.relative(SOURCE, file);
const rankOf = (file: string) => LAYERS.find(([folder]) => relative(file).startsWith(`${folder}${path.sep}`))?.[1];

describe("source layers", () => {
  const graph = importGraph();

  it("has no import circles", () => {
    const circles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (file: string) => {
      state.set(file, "open");
      stack.push(file);
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === "open") circles.push(stack.slice(stack.indexOf(target)).concat(target).map(relative).join(" → "));
        else if (!state.has(target) && graph.has(target)) visit(target);
      }
      stack.pop();
      state.set(file, "done");
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(circles).toEqual([]);
  });

  it("has no import running up the layers", () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = rankOf(file);
      for (const target of targets) {
        const to = rankOf(target);
        if (from !== undefined && to !== undefined && to > from) upward.push(`${relative(file)} → ${relative(target)}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
