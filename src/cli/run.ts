// `toolgate <command>` as a function of its arguments: parses them, answers help and --version
// itself, refuses what no command takes, and loads the command code only when a command runs. Every
// refusal is one line per problem, `<what>: <problem>`, and exit status 2.
import { parseArgs } from "node:util";
import { projectVersion } from "../project-root.js";
import { COMMANDS, COMMON_OPTIONS, commandUsage, findCommand, OPTIONS, USAGE, type OptionName } from "./usage.js";

/** Where a run writes, and the environment it reads its configuration from. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
}

/** The exit status, or `"serving"`: serve started and the process stays up until a signal. */
export type CliOutcome = number | "serving";

/** node:util's parse error as one line, worded from the option table rather than its message. */
function argumentProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message: string };
  const written = /'(-[^' =]*)/.exec(message)?.[1];
  const name = written?.replace(/^-+/, "") as OptionName | undefined;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && written) return `${written}: unknown option (toolgate help lists the commands and their options)`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && name && Object.hasOwn(OPTIONS, name)) {
    return OPTIONS[name].type === "string" ? `--${name}: needs a value` : `--${name}: takes no value`;
  }
  return message.split("\n")[0]!;
}

/** The commands under a first word (`account` → account create, account list). */
const familyOf = (words: readonly string[]) => COMMANDS.filter((command) => words.length === 1 && command.name.startsWith(`${words[0]} `));

function help(topic: readonly string[], io: CliIo): CliOutcome {
  if (topic.length === 0) {
    io.out(USAGE);
    return 0;
  }
  const command = findCommand(topic);
  const family = familyOf(topic);
  if (command) io.out(commandUsage(command));
  else if (family.length > 0) io.out(family.map((member) => `usage: toolgate ${member.name} ${member.synopsis}`).join("\n"));
  else return unknownCommand(topic, io);
  return 0;
}

function unknownCommand(words: readonly string[], io: CliIo): CliOutcome {
  const family = familyOf(words);
  if (family.length > 0) {
    const subcommands = family.map((member) => member.name.split(" ")[1]).join(", ");
    io.err(`${words[0]}: needs one of ${subcommands} (toolgate help ${words[0]})`);
  } else {
    io.err(`${words.join(" ")}: unknown command (toolgate help lists the commands)`);
  }
  return 2;
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<CliOutcome> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.err(argumentProblem(error));
    return 2;
  }
  const { values: options, positionals } = parsed;
  if (options.version) {
    io.out(projectVersion);
    return 0;
  }
  if (positionals[0] === "help") return help(positionals.slice(1), io);
  if (positionals.length === 0) return help([], io);
  const command = findCommand(positionals);
  if (!command) return unknownCommand(positionals, io);
  if (options.help) return help(positionals, io);
  const foreign = Object.keys(options).filter((name) => !Object.hasOwn(command.options, name) && !Object.hasOwn(COMMON_OPTIONS, name));
  if (foreign.length > 0) {
    io.err(foreign.map((name) => `--${name}: not an option of ${command.name} (toolgate help ${command.name})`).join("\n"));
    return 2;
  }
  const { runCommand } = await import("./commands.js");
  return runCommand(command.name, options, io);
}
