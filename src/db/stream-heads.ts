// The names of the streams whose newest change the StreamHead table keeps: written by the domain's
// event flush (src/domain/event-streams.ts), read by the read cache's data version (data-version.ts).

/** Moved by retention, which deletes events without recording any: every account depends on it. */
export const SYSTEM_STREAM = "*";
/** What an account stream's name starts with; SQL that derives names from an account column uses it too. */
export const ACCOUNT_STREAM_PREFIX = "account:";
export const accountStream = (accountId: string) => `${ACCOUNT_STREAM_PREFIX}${accountId}`;
export const environmentStream = (environmentId: string) => `environment:${environmentId}`;
