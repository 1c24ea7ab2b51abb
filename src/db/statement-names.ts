// Names for PostgreSQL prepared statements. A named statement is parsed and planned once per
// connection and then only bound and executed; an unnamed one (node-postgres' default) is parsed and
// planned at every use. A connection keeps its named statements until it closes, so statements whose
// text varies with the length of a parameter list (`IN ($1, …, $n)`: every length is another text)
// stay unnamed, and the names come from the text, so one text is one statement whichever code sends it.
import { createHash } from "node:crypto";

/** Parameters above which a statement is left unnamed: its text likely varies with a list's length. */
const MAX_NAMED_PARAMETERS = 64;

const names = new Map<string, string>();
/** Texts named so far, kept to avoid hashing each again; bounded like the statements they stand for. */
const MAX_REMEMBERED_TEXTS = 2000;

/** The statement's name, or undefined to leave it unnamed (node-postgres' default). */
export function statementNameOf(query: { sql: string; args: readonly unknown[] }): string | undefined {
  if (query.args.length > MAX_NAMED_PARAMETERS) return undefined;
  let name = names.get(query.sql);
  if (name === undefined) {
    name = `toolgate_${createHash("sha1").update(query.sql).digest("base64url")}`;
    if (names.size >= MAX_REMEMBERED_TEXTS) names.clear();
    names.set(query.sql, name);
  }
  return name;
}
