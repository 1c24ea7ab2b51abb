// An online copy of an embedded SQLite database: SQLite's backup API reads a consistent snapshot
// page by page while the server keeps reading and writing (WAL included), into a new file that is
// a complete database of its own, ready to be put in place of the original.
import Database from "better-sqlite3";

/** Copies the database file `source` into the new file `target`; how many pages it wrote. */
export async function backupSqlite(source: string, target: string): Promise<{ pages: number }> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    const { totalPages } = await db.backup(target);
    return { pages: totalPages };
  } finally {
    db.close();
  }
}
