// The project's directory (where its package.json is), found from this module's location: the
// sources (tsx, the tests), the compiled files and the bundle all sit at different depths below it.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function findProjectRoot(): string {
  for (let directory = path.dirname(fileURLToPath(import.meta.url)); ; directory = path.dirname(directory)) {
    const manifest = path.join(directory, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "toolgate") return directory;
    if (path.dirname(directory) === directory) throw new Error("toolgate's package.json was not found above its modules");
  }
}

export const projectRoot = findProjectRoot();

/** The version in package.json. */
export const projectVersion = (JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as { version: string }).version;
