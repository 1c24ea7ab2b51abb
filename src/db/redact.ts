// Database URLs go into logs and error messages; their passwords must not.

/**
 * `postgres://user:secret@host/db` → `postgres://user:***@host/db`. A `password` query parameter
 * is masked too. `file:` URLs carry no credentials and come back unchanged; anything unparseable
 * is reduced to its scheme, since it may hold a secret in a form we do not recognise.
 */
export function redactDatabaseUrl(url: string): string {
  if (url.startsWith("file:")) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0];
    return scheme ? `${scheme}//***` : "***";
  }
  if (parsed.password) parsed.password = "***";
  for (const key of [...parsed.searchParams.keys()]) {
    if (/^(password|sslpassword|sslkey)$/i.test(key)) parsed.searchParams.set(key, "***");
  }
  return parsed.toString().replace(/%2A%2A%2A/g, "***");
}
