// `toolgate backup --to FILE`: an online copy of an embedded SQLite database. PostgreSQL has its own
// tools for that (pg_dump), which know its roles, extensions and versions better than we would.
import { existsSync } from "node:fs";
import path from "node:path";
import { sqliteFilePath } from "../db/connection.js";
import { providerOf } from "../db/database-url.js";
import { backupSqlite } from "../db/sqlite-backup.js";
import { InvalidOptionsError } from "./options.js";

export async function backupDatabase(databaseUrl: string, to: string | boolean | undefined): Promise<{ backup: string; pages: number }> {
  const problems: string[] = [];
  if (typeof to !== "string" || to === "") problems.push("--to: is required (the new file to write)");
  else if (existsSync(to)) problems.push(`--to: ${path.resolve(to)} exists; name a new file`);
  if (providerOf(databaseUrl) !== "sqlite") {
    problems.push("--database-url: backup copies SQLite files; back up PostgreSQL with pg_dump (docs/deploy.md, Backup and restore)");
  } else if (!existsSync(sqliteFilePath(databaseUrl))) {
    problems.push(`--database-url: no database at ${sqliteFilePath(databaseUrl)}`);
  }
  if (problems.length > 0) throw new InvalidOptionsError(problems);
  const target = path.resolve(to as string);
  return { backup: target, ...(await backupSqlite(sqliteFilePath(databaseUrl), target)) };
}
