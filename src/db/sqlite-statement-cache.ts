// Reuses prepared SQLite statements. Prisma's better-sqlite3 adapter prepares every query anew
// (4.6% of a REST grant view's CPU in bench/profile.ts), although the query compiler sends the same
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

function viewOf(statement: Statement, args: unknown[] = []): StatementView {
  return {
    reader: statement.reader,
    bind: (bound) => viewOf(statement, bound),
    columns: () => statement.columns(),
    raw: (toggle = true) => ({ all: () => statement.raw(toggle).all(args) }),
    run: () => statement.run(args),
  };
}

/** Makes `database.prepare` answer from a bounded cache of statements, keyed by SQL text. */
export function reusePreparedStatements(database: BetterSqlite3.Database, maxStatements = 500): void {
  const cache = new LRUCache<string, Statement>({ max: maxStatements });
  const prepare = database.prepare.bind(database);
  database.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = prepare<unknown[]>(sql);
      cache.set(sql, statement);
    }
    return viewOf(statement);
  }) as unknown as typeof database.prepare;
}
