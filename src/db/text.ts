// PostgreSQL's text cannot hold U+0000 (NUL): a query whose parameter holds one fails (22021)
// instead of matching nothing. So the inputs stored as text columns refuse it on both databases,
// no stored text holds one, and a lookup by such text finds nothing without asking the database.

/** Why such text is refused, in the words of the other input problems. */
export const NUL_PROBLEM = "must not contain U+0000 (NUL)";

export function holdsNul(text: string): boolean {
  return text.includes("\u0000");
}
