// Database URLs printed or logged by toolgate never show a password.
import { describe, expect, it } from "vitest";
import { redactDatabaseUrl } from "../../src/db/redact.js";

describe("redactDatabaseUrl", () => {
  it("masks the password of a PostgreSQL URL and keeps user, host, port and database", () => {
    expect(redactDatabaseUrl("postgres://toolgate:s3cr%40t@db.internal:5433/registry")).toBe("postgres://toolgate:***@db.internal:5433/registry");
  });

  it("masks a password given as a query parameter", () => {
    expect(redactDatabaseUrl("postgresql://toolgate@db/registry?password=hunter2&sslmode=require")).toBe(
      "postgresql://toolgate@db/registry?password=***&sslmode=require",
    );
  });

  it("leaves URLs without credentials unchanged", () => {
    expect(redactDatabaseUrl("postgres://postgres@127.0.0.1:5432/test")).toBe("postgres://postgres@127.0.0.1:5432/test");
    expect(redactDatabaseUrl("file:./data/toolgate.db")).toBe("file:./data/toolgate.db");
  });

  it("reduces an unparseable URL to its scheme", () => {
    expect(redactDatabaseUrl("postgres://user:pa ss@[bad")).toBe("postgres://***");
  });
});
