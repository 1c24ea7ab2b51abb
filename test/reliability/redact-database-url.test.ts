// redactDatabaseUrl: what may be printed of a database URL.
import { describe, expect, it } from "vitest";
import { redactDatabaseUrl } from "../../src/db/redact.js";

describe("redactDatabaseUrl", () => {
  it("replaces the password of the user info", () => {
    expect(redactDatabaseUrl("postgres://toolgate:s3cret@db.internal:5432/registry")).toBe("postgres://toolgate:***@db.internal:5432/registry");
  });

  it("replaces a percent-encoded password whole", () => {
    expect(redactDatabaseUrl("postgresql://toolgate:p%40ss%3Aword@db/registry")).toBe("postgresql://toolgate:***@db/registry");
  });

  it("replaces a password given in the query string, keeping the other parameters", () => {
    const redacted = redactDatabaseUrl("postgres://toolgate@db/registry?sslmode=require&password=s3cret");
    expect(redacted).not.toContain("s3cret");
    expect(new URL(redacted).searchParams.get("password")).toBe("***");
    expect(new URL(redacted).searchParams.get("sslmode")).toBe("require");
  });

  it("returns URLs without credentials exactly as given", () => {
    for (const url of ["file:./data/toolgate.db", "file:/tmp/a b.db", "postgres://postgres@127.0.0.1:5432/test", "postgres://db/registry"]) {
      expect(redactDatabaseUrl(url)).toBe(url);
    }
  });

  it("redacts URLs of unsupported schemes too (they appear in error messages)", () => {
    expect(redactDatabaseUrl("mysql://root:s3cret@db/registry")).toBe("mysql://root:***@db/registry");
  });

  it("hides text that does not parse as a URL, since any of it may be secret", () => {
    expect(redactDatabaseUrl("s3cret")).toBe("***");
  });
});
