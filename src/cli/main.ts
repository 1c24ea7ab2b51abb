// The `toolgate` command's entry: runs the command line, then exits with its status (serve keeps running).
import { runCli } from "./run.js";

const outcome = await runCli(process.argv.slice(2), { out: (text) => console.log(text), err: (text) => console.error(text), env: process.env });
// Success ends when nothing is left to do, so output piped elsewhere is never cut short.
if (outcome !== "serving" && outcome !== 0) process.exit(outcome);
