// `npm run check`: the static checks, run side by side (each is one process and mostly one core):
// the type check, typescript-eslint, Biome's formatting check and knip. Each one's output is printed
// when it ends; the exit code is non-zero when any failed.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(projectRoot, "node_modules", ".bin", name);
const CHECKS = [
  ["type check", bin("tsc"), ["--noEmit"]],
  ["eslint", bin("eslint"), ["."]],
  ["format", bin("biome"), ["format"]],
  ["knip", bin("knip"), []],
];

const results = await Promise.all(
  CHECKS.map(
    ([name, command, args]) =>
      new Promise((resolve) => {
        const started = performance.now();
        const child = spawn(command, args, { cwd: projectRoot, stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        child.stdout.on("data", (chunk) => (output += chunk));
        child.stderr.on("data", (chunk) => (output += chunk));
        child.on("close", (code) => {
          const seconds = ((performance.now() - started) / 1000).toFixed(1);
          process.stdout.write(`== ${name}: ${code === 0 ? "ok" : `failed (exit ${code})`} in ${seconds} s\n${code === 0 ? "" : output}`);
          resolve(code === 0);
        });
      }),
  ),
);
process.exit(results.every(Boolean) ? 0 : 1);
