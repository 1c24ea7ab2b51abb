// The statement cache the SQLite adapter runs on: one prepared statement per SQL text, each use
// with its own arguments, and the result columns as the statement reports them.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { reusePreparedStatements } from "../../src/db/sqlite-statement-cache.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function openFile(): Database.Database {
  const directory = mkdtempSync(path.join(os.tmpdir(), "toolgate-statements-"));
  directories.push(directory);
  const database = new Database(path.join(directory, "db.sqlite"));
  database.exec(`CREATE TABLE "Tool" ("id" INTEGER PRIMARY KEY, "name" TEXT NOT NULL, "at" DATETIME)`);
  database.prepare(`INSERT INTO "Tool" ("id", "name") VALUES (?, ?), (?, ?)`).run(1, "one", 2, "two");
  return database;
}

describe("reusePreparedStatements", () => {
  it("answers each use of one SQL text with that use's arguments", () => {
    const database = openFile();
    reusePreparedStatements(database);
    const sql = `SELECT "id", "name" FROM "Tool" WHERE "id" = ?`;
    const first = database.prepare(sql).bind([1]);
    const second = database.prepare(sql).bind([2]);
    expect(first.raw().all()).toEqual([[1, "one"]]);
    expect(second.raw().all()).toEqual([[2, "two"]]);
    expect(first.raw().all()).toEqual([[1, "one"]]);
    database.close();
  });

  it("reports the statement's columns with their declared types, the same on every use", () => {
    const database = openFile();
    reusePreparedStatements(database);
    const sql = `SELECT "name", "at" FROM "Tool"`;
    const columns = database.prepare(sql).columns();
    expect(columns.map((column) => [column.name, column.type])).toEqual([
      ["name", "TEXT"],
      ["at", "DATETIME"],
    ]);
    expect(database.prepare(sql).columns()).toEqual(columns);
    database.close();
  });

  it("runs writes through the same statements", () => {
    const database = openFile();
    reusePreparedStatements(database);
    const insert = `INSERT INTO "Tool" ("id", "name") VALUES (?, ?)`;
    database.prepare(insert).bind([3, "three"]).run();
    database.prepare(insert).bind([4, "four"]).run();
    expect(database.prepare(`SELECT count(*) FROM "Tool"`).bind([]).raw().all()).toEqual([[4]]);
    database.close();
  });
});
