// The source's layers, checked on its imports: no module imports itself through others (value
// imports; type-only ones vanish at build), and no arrow, not even a type's, runs up the layers (the
// domain and the database know nothing of metrics, GraphQL or HTTP; metrics nothing of GraphQL or
// HTTP; GraphQL nothing of HTTP). Within HTTP, the pipeline's steps know nothing of the surfaces
// they carry (the API front, GraphQL, REST, the pages).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SOURCE = fileURLToPath(new URL("../../src", import.meta.url));
const LAYERS: [folder: string, rank: number][] = [
  ["domain", 0],
  ["db", 0],
  ["metrics", 1],
  // Sending webhooks: the domain's records and the network, nothing of GraphQL or HTTP.
  ["webhooks", 1],
  ["graphql", 2],
  ["http", 3],
  ["cli", 4],
  // The composition: configuration and the service, which wire the layers together.
  ["config.ts", 4],
  ["service.ts", 4],
];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

/** Each module's imports of other modules in src (relative specifiers): all of them, or values only. */
function importGraph(valuesOnly: boolean): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SOURCE)) {
    const text = readFileSync(file, "utf8");
    const targets: string[] = [];
    for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?[^;]*?from\s+"(\.[^"]+)"/gm)) {
      if (match[1] && valuesOnly) continue;
      const target = path.resolve(path.dirname(file), match[2]!).replace(/\.js$/, ".ts");
      if (!target.includes(`${path.sep}generated${path.sep}`)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

const relative = (file: string) => path.relative(SOURCE, file);
const rankOf = (file: string) => LAYERS.find(([folder]) => relative(file) === folder || relative(file).startsWith(`${folder}${path.sep}`))?.[1];

describe("source layers", () => {
  const graph = importGraph(true);
  const everyImport = importGraph(false);

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
    for (const [file, targets] of everyImport) {
      const from = rankOf(file);
      for (const target of targets) {
        const to = rankOf(target);
        if (from !== undefined && to !== undefined && to > from) upward.push(`${relative(file)} → ${relative(target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("keeps the HTTP pipeline's steps apart from the surfaces they carry", () => {
    const pipeline = `http${path.sep}pipeline${path.sep}`;
    const surfaces = ["api", "graphql-endpoint", "rest", "pages"].map((folder) => `http${path.sep}${folder}${path.sep}`);
    const crossing: string[] = [];
    for (const [file, targets] of everyImport) {
      if (!relative(file).startsWith(pipeline)) continue;
      for (const target of targets)
        if (surfaces.some((surface) => relative(target).startsWith(surface))) crossing.push(`${relative(file)} → ${relative(target)}`);
    }
    expect(crossing).toEqual([]);
  });
});
