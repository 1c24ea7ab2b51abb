// Builds dist/ before any test file runs: tests start servers and the CLI through bin/toolgate.js,
// exactly as operators do, and a stale build would test old code.
import { execFileSync } from "node:child_process";

export default function buildOnce(): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
}
