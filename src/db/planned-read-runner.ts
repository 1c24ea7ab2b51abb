// Sends a planned read (planned-reads.ts) the way definition-texts.ts sends its statement: on
// PostgreSQL to the adapter's pool, as a named statement (the JSON column parsed by node-postgres),
// on SQLite to the adapter through the isolation gate.
import type { AdapterAccess } from "./adapter-access.js";
import { argTypeOf } from "./arg-types.js";
import type { PostgresPool } from "./definition-texts.js";
import { planFindFirst, type PlannedModel } from "./planned-reads.js";
import { timed, type QueryObserver } from "./query-timing.js";
import { statementNameOf } from "./statement-names.js";

/** The row `findFirst(args)` answers, in one statement; undefined when the arguments are Prisma's to answer. */
export type PlannedReader = (model: PlannedModel, args: Record<string, unknown>) => Promise<Record<string, unknown> | null> | undefined;

/**
 * `onQuery`: told each statement, as Prisma's query log is (tests count statements); `observe`: its
 * duration, for the database metrics (on SQLite the adapter reports it already).
 */
export function plannedReader(
  access: AdapterAccess,
  postgres: PostgresPool | undefined,
  onQuery?: (sql: string) => void,
  observe?: QueryObserver,
): PlannedReader {
  if (postgres) {
    return (model, args) => {
      const plan = planFindFirst({ postgres: true }, model, args);
      if (!plan) return undefined;
      onQuery?.(plan.sql);
      const name = postgres.preparedStatements ? statementNameOf(plan) : undefined;
      const query = () => postgres.pool.query<{ row: unknown }>({ ...(name ? { name } : {}), text: plan.sql, values: plan.args });
      return (observe ? timed(plan.sql, query, observe) : query()).then(({ rows }) => plan.decode(rows[0]?.row));
    };
  }
  return (model, args) => {
    const plan = planFindFirst({ postgres: false }, model, args);
    if (!plan) return undefined;
    onQuery?.(plan.sql);
    return access
      .adapter()
      .queryRaw({
        sql: plan.sql,
        args: plan.args,
        argTypes: plan.args.map(argTypeOf),
      })
      .then(({ rows }) => plan.decode(rows[0]?.[0]), describeAdapterError);
  };
}

/**
 * The adapter's error names only its kind (`TableDoesNotExist`); what SQLite said goes into the
 * message too, as Prisma's own errors carry it, for the log of an unexpected failure.
 */
function describeAdapterError(error: unknown): never {
  const cause = (error as { cause?: { originalMessage?: unknown } } | null)?.cause;
  if (error instanceof Error && typeof cause?.originalMessage === "string" && !error.message.includes(cause.originalMessage)) {
    error.message = `${error.message}: ${cause.originalMessage}`;
  }
  throw error;
}
