// What `toolgate` accepts: the usage text and the option table, loaded before anything heavy so
// `toolgate --help` answers without opening the database code.
import type { ParseArgsConfig } from "node:util";

export const USAGE = `usage: toolgate <command> [options]

commands:
  serve [--port N] [--host H] [--database-url URL] [--log-level L] [--demo]
  migrate [--database-url URL]          (creates a missing PostgreSQL database)
  seed --demo [--database-url URL]
  account create --name NAME --email EMAIL [--plan free|team|unlimited] [--admin]
  account list [--json]
  environment create --account ID --name NAME [--version-check]
  environment share --environment ID --account ID --role viewer|deployer
  environment list [--account ID] [--json]
  token create --account ID --name NAME [--expires-at ISO-8601]
  token create --admin [--name NAME] [--expires-at ISO-8601]   (a new token for the bootstrap admin)
  token revoke --id ID
  token list [--account ID] [--json]

Every option also has an environment variable (see README: Configuration).`;

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
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsConfig["options"];
