// Reuses prepared SQLite statements. Prisma's better-sqlite3 adapter prepares every query anew
// (a visible share of a read's CPU in bench/profile.ts), although the query compiler sends the same
// SQL texts over and over. The adapter binds parameters with `prepare(sql).bind(args)`, and
// better-sqlite3 lets a statement be bound only once, so a cached statement is handed out behind a
// view whose `bind` keeps the arguments and passes them to every call instead.
import type BetterSqlite3 from "better-sqlite3";
import { LRUCache } from "lru-cache";

type Statement = BetterSqlite3.Statement<unknown[]>;

/** What the adapter uses of a statement. */
interface StatementView {
  readonly reader: boolean;
  bind(args: unknown[]): StatementView;
  columns(): BetterSqlite3.ColumnDefinition[];
  raw(toggle?: boolean): { all(): unknown[] };
  run(): BetterSqlite3.RunResult;
}

/**
 * A statement's result columns are fixed by its SQL text (Prisma names every column), yet the adapter
 * asks for them at every query.
 */
interface CachedStatement {
  statement: Statement;
  columns?: BetterSqlite3.ColumnDefinition[];
}

function viewOf(cached: CachedStatement, args: unknown[] = []): StatementView {
  const { statement } = cached;
  return {
    reader: statement.reader,
    bind: (bound) => viewOf(cached, bound),
    columns: () => (cached.columns ??= statement.columns()),
    raw: (toggle = true) => ({ all: () => statement.raw(toggle).all(args) }),
    run: () => statement.run(args),
  };
}

/** Makes `database.prepare` answer from a bounded cache of statements, keyed by SQL text. */
export function reusePreparedStatements(database: BetterSqlite3.Database, maxStatements = 500): void {
  const cache = new LRUCache<string, CachedStatement>({ max: maxStatements });
  const prepare = database.prepare.bind(database);
  database.prepare = ((sql: string) => {
    let cached = cache.get(sql);
    if (!cached) {
      cached = { statement: prepare<unknown[]>(sql) };
      cache.set(sql, cached);
    }
    return viewOf(cached);
  }) as unknown as typeof database.prepare;
}
