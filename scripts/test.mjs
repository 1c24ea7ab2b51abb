// `npm test`: the static checks (scripts/check.mjs) and vitest side by side. vitest keeps a core
// partly idle while its tests wait on servers, databases and child processes, and the checks fill
// it: together they end about as soon as vitest alone. vitest's output streams; each check prints a
// line when it ends (its output too when it failed). The exit code is non-zero when either failed.
// Arguments go to vitest (`npm test -- test/cli`).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const run = (command, args) =>
  new Promise((resolve) => spawn(command, args, { cwd: projectRoot, stdio: "inherit" }).on("close", (code) => resolve(code === 0)));

const [checked, tested] = await Promise.all([
  run(process.execPath, [path.join(projectRoot, "scripts", "check.mjs")]),
  run(path.join(projectRoot, "node_modules", ".bin", "vitest"), ["run", ...process.argv.slice(2)]),
]);
if (!checked) console.error("== the static checks failed (above); run them alone with npm run check");
process.exit(checked && tested ? 0 : 1);
