// `toolgate <command>`: parses the command line and loads the command code only when a command runs.
import { parseArgs } from "node:util";
import { OPTIONS, USAGE } from "./usage.js";

const argv = process.argv.slice(2);
const { values: options, positionals } = (() => {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
})();

if (options.help || positionals.length === 0) {
  console.log(USAGE);
} else {
  const { runCommand, exitWithFailure } = await import("./commands.js");
  await runCommand(positionals, options).catch(exitWithFailure);
}
