// `toolgate <command>`: parses the command line and loads the command code only when a command runs.
import { parseArgs } from "node:util";
import { OPTIONS, USAGE } from "./usage.js";

/** node:util's parse error as one line; its unknown-option text explains `--` at length. */
function argumentProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message: string };
  const option = /'(-[^' ]*)/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option) return `unknown option ${option} (toolgate --help lists the options)`;
  return message.split("\n")[0]!;
}

const argv = process.argv.slice(2);
const { values: options, positionals } = (() => {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    console.error(argumentProblem(error));
    process.exit(2);
  }
})();

if (options.help || positionals.length === 0) {
  console.log(USAGE);
} else {
  const { runCommand, exitWithFailure } = await import("./commands.js");
  await runCommand(positionals, options).catch(exitWithFailure);
}
