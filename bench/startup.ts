// Start-up costs the issue tracks: `toolgate --help` (wall time of the whole process, run as the
// `toolgate` command). The time a server takes to be ready is measured where the harness starts it
// (bench/servers.ts), over three starts (bench/run.ts).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { median } from "./measure.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export function timeHelp(times: number): { medianMs: number; samplesMs: number[] } {
  const samplesMs: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const result = spawnSync("bin/toolgate.js", ["--help"], { cwd: ROOT, encoding: "utf8" });
    if (result.status !== 0) throw new Error(`toolgate --help failed (${result.status}): ${result.stderr}`);
    samplesMs.push(performance.now() - started);
  }
  return { medianMs: median(samplesMs), samplesMs };
}
