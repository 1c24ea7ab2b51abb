// What `toolgate` accepts: every command with its options and help text, and the option table for
// node:util's parser. Loaded before anything heavy, so `--help` and `--version` answer without
// opening the database code.
import type { ParseArgsConfig } from "node:util";

export const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  "database-url": { type: "string" },
  "log-level": { type: "string" },
  demo: { type: "boolean" },
  name: { type: "string" },
  email: { type: "string" },
  plan: { type: "string" },
  admin: { type: "boolean" },
  account: { type: "string" },
  environment: { type: "string" },
  role: { type: "string" },
  "version-check": { type: "boolean" },
  "expires-at": { type: "string" },
  id: { type: "string" },
  json: { type: "boolean" },
  to: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
} satisfies ParseArgsConfig["options"];

export type OptionName = keyof typeof OPTIONS;

export interface CommandSpec {
  /** One or two words: `serve`, `account create`. */
  name: string;
  /** The options after the name, as the usage line shows them. */
  synopsis: string;
  summary: string;
  /** Every option the command takes, with what it means; `--database-url` and `--help` are implied. */
  options: Partial<Record<OptionName, string>>;
}

const DATABASE_URL_HELP = "the database: file:<path> (SQLite) or postgres://… (TOOLGATE_DATABASE_URL; default file:./data/toolgate.db)";

export const COMMANDS: readonly CommandSpec[] = [
  {
    name: "serve",
    synopsis: "[--port N] [--host H] [--database-url URL] [--log-level L] [--demo]",
    summary: "Starts the HTTP server (GraphQL, REST /v1, GraphiQL), creating and migrating the database first. SIGTERM or SIGINT stops it gracefully.",
    options: {
      port: "HTTP port, 0–65535; 0 picks a free one (PORT; default 4000)",
      host: "interface to listen on (HOST; default 127.0.0.1)",
      "log-level": "fatal, error, warn, info, debug, trace or silent (LOG_LEVEL; default info)",
      demo: "load the demo data into an empty database and print its tokens and ids (TOOLGATE_DEMO)",
    },
  },
  {
    name: "migrate",
    synopsis: "[--database-url URL]",
    summary: 'Creates a missing database (SQLite file or PostgreSQL) and applies pending migrations; prints {"applied": [...]}.',
    options: {},
  },
  {
    name: "backup",
    synopsis: "--to FILE [--database-url URL]",
    summary:
      "Copies an embedded SQLite database, while the server runs, into a new file (SQLite's online backup). On PostgreSQL, use pg_dump (docs/deploy.md, Backup and restore).",
    options: { to: "the new file to write; an existing file is refused" },
  },
  {
    name: "seed",
    synopsis: "--demo [--database-url URL]",
    summary: "Loads the demo data into a registry that has no users yet; otherwise changes nothing.",
    options: { demo: "the data set to load (the only one)" },
  },
  {
    name: "account create",
    synopsis: "--name NAME --email EMAIL [--plan free|team|unlimited] [--admin]",
    summary: "Creates an account and prints it as JSON.",
    options: { name: "display name", email: "e-mail address, unique", plan: "free (default), team or unlimited", admin: "an administrator account" },
  },
  {
    name: "account list",
    synopsis: "[--json]",
    summary: "Lists the accounts as a table.",
    options: { json: "print JSON instead of a table" },
  },
  {
    name: "environment create",
    synopsis: "--account ID --name NAME [--version-check]",
    summary: "Creates an environment owned by an account and prints it as JSON.",
    options: {
      account: "the owning account's id",
      name: "environment name, unique within the account",
      "version-check": "grant only releases whose definitions pin their versions (immutable releases)",
    },
  },
  {
    name: "environment share",
    synopsis: "--environment ID --account ID --role viewer|deployer",
    summary: "Shares an environment with another account.",
    options: { environment: "the environment's id", account: "the account to share it with", role: "viewer (reads) or deployer (reads and grants)" },
  },
  {
    name: "environment list",
    synopsis: "[--account ID] [--json]",
    summary: "Lists the environments, of one account or of all, as a table.",
    options: { account: "only this account's environments", json: "print JSON instead of a table" },
  },
  {
    name: "token create",
    synopsis: "--account ID --name NAME [--expires-at ISO-8601]  |  --admin [--name NAME] [--expires-at ISO-8601]",
    summary: "Issues an API token and prints its secret once. With --admin, a new token for the bootstrap admin (a lost admin token).",
    options: {
      account: "the account the token acts as",
      name: "a name to recognise the token by",
      "expires-at": "when the token stops working, e.g. 2030-01-01 (default: never)",
      admin: "issue it for the bootstrap admin instead of --account",
    },
  },
  {
    name: "token revoke",
    synopsis: "--id ID",
    summary: "Revokes a token at once; prints it as JSON.",
    options: { id: "the token's id (token list shows it)" },
  },
  {
    name: "token list",
    synopsis: "[--account ID] [--json]",
    summary: "Lists the tokens (never their secrets), of one account or of all, as a table.",
    options: { account: "only this account's tokens", json: "print JSON instead of a table" },
  },
];

/** Options every command takes besides its own. */
export const COMMON_OPTIONS: Partial<Record<OptionName, string>> = { "database-url": DATABASE_URL_HELP, help: "print this help" };

export function findCommand(words: readonly string[]): CommandSpec | undefined {
  return COMMANDS.find((command) => command.name === words.join(" "));
}

export const USAGE = `usage: toolgate <command> [options]

commands:
${COMMANDS.map((command) => `  ${`${command.name} ${command.synopsis}`.trimEnd()}`).join("\n")}

  toolgate help <command>   (or <command> --help) explains a command and its options
  toolgate --version        prints the version

Every option also has an environment variable (see README: Configuration).`;

/** `toolgate <command> --help`: the usage line, what it does, and each option. */
export function commandUsage(command: CommandSpec): string {
  const options = Object.entries({ ...command.options, ...COMMON_OPTIONS });
  const width = Math.max(...options.map(([name]) => name.length)) + 4;
  return [
    `usage: toolgate ${command.name} ${command.synopsis}`.trimEnd(),
    "",
    command.summary,
    "",
    "options:",
    ...options.map(([name, meaning]) => `  ${`--${name}`.padEnd(width)}${meaning}`),
  ].join("\n");
}
