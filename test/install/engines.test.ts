// package.json's `engines` is true: the Node this runs on satisfies it, and every installed package
// accepts both this Node and the oldest one `engines` admits (so npm prints no EBADENGINE).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

// semver is installed with npm's tree (not a direct dependency, and without types).
const semver = createRequire(import.meta.url)("semver") as {
  satisfies(version: string, range: string, options?: { includePrerelease?: boolean }): boolean;
  minVersion(range: string): { version: string } | null;
};

interface Manifest {
  name?: string;
  version?: string;
  engines?: { node?: string };
}

const readManifest = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Manifest;
const project = readManifest("package.json");

/** Every package under node_modules, nested ones included: [where, manifest]. */
function installedPackages(dir: string): [string, Manifest][] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith(".")) return [];
    const folder = path.join(dir, entry.name);
    if (entry.name.startsWith("@")) return installedPackages(folder);
    const manifestFile = path.join(folder, "package.json");
    const own: [string, Manifest][] = existsSync(manifestFile) ? [[path.relative(process.cwd(), folder), readManifest(manifestFile)]] : [];
    return [...own, ...installedPackages(path.join(folder, "node_modules"))];
  });
}

describe("engines", () => {
  const range = project.engines?.node;
  const oldest = range ? semver.minVersion(range)?.version : undefined;

  it("package.json declares a Node range that this Node satisfies", () => {
    expect(range).toBeDefined();
    expect(semver.satisfies(process.version, range!), `${process.version} against ${range}`).toBe(true);
  });

  it("every installed package accepts this Node and the oldest one package.json admits", () => {
    const packages = installedPackages("node_modules");
    expect(packages.length).toBeGreaterThan(100);
    const refusing = packages.flatMap(([where, manifest]) => {
      const wanted = manifest.engines?.node;
      if (typeof wanted !== "string") return [];
      const refused = [process.version, oldest!].filter((version) => !semver.satisfies(version, wanted, { includePrerelease: true }));
      return refused.length > 0 ? [`${where}@${manifest.version} wants node ${wanted} (refuses ${refused.join(", ")})`] : [];
    });
    expect(refusing).toEqual([]);
  });
});
