// Which database a TOOLGATE_DATABASE_URL names. Apart from connection.ts, so that the configuration
// can ask before any driver loads.
import type { DatabaseProvider } from "./prisma-schemas.js";
import { redactDatabaseUrl } from "./redact.js";

export function providerOf(databaseUrl: string): DatabaseProvider {
  if (databaseUrl.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return "postgresql";
  throw new Error(`unsupported database URL (expected file: or postgres://): ${redactDatabaseUrl(databaseUrl)}`);
}
