// What `toolgate` accepts: the usage text and the option table, loaded before anything heavy so
// `toolgate --help` answers without opening the database code.
import type { ParseArgsConfig } from "node:util";

export const USAGE = `usage: toolgate <command> [options]

commands:
  serve [--port N] [--host H] [--database-url URL] [--log-level L] [--demo]
  migrate [--database-url URL]
  seed --demo [--database-url URL]
  account create --name NAME --email EMAIL [--plan free|team|unlimited] [--admin]
  environment create --account ID --name NAME [--version-check]
  environment share --environment ID --account ID --role viewer|deployer
  token create --account ID --name NAME [--expires-at ISO-8601]
  token revoke --id ID

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
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsConfig["options"];
