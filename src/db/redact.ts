// Database URLs carry credentials; anything printed or logged shows them through this.

const REDACTED = "***";

/**
 * `postgres://user:secret@host/db` → `postgres://user:***@host/db`. URLs without a password
 * (`file:` paths, trust-auth PostgreSQL) come back unchanged; text that is not a URL at all is
 * hidden whole, since nothing says which part of it is secret.
 */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return REDACTED;
  }
  // libpq also reads a password from the query string (`?password=…`).
  const hasQueryPassword = parsed.searchParams.has("password");
  // Untouched URLs are returned as given: serialising would rewrite `file:./x.db` as `file:///x.db`.
  if (parsed.password === "" && !hasQueryPassword) return url;
  if (parsed.password !== "") parsed.password = REDACTED;
  if (hasQueryPassword) parsed.searchParams.set("password", REDACTED);
  return parsed.toString();
}
