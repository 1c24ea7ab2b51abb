// docs/api.md's error table lists every code the server can answer, each under the status it is
// answered with (src/graphql/error-codes.ts): a code added to the server without a row fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/domain/errors.js";
import { HTTP_STATUS_BY_CODE } from "../../src/graphql/error-codes.js";

const API_DOC = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");

/** The rows of the table under `## Errors`: each status with the codes its second column names. */
function errorTableRows(markdown: string): { status: number; codes: string[] }[] {
  const section = markdown.split(/^## Errors$/m)[1]?.split(/^## /m)[0] ?? "";
  return [...section.matchAll(/^\| (\d{3}) \| ([^|]+) \|/gm)].map(([, status, codes]) => ({
    status: Number(status),
    codes: [...codes!.matchAll(/`([A-Z_]+)`/g)].map(([, code]) => code!),
  }));
}

describe("docs/api.md error table", () => {
  const rows = errorTableRows(API_DOC);

  it("has one row per status, in order", () => {
    const statuses = rows.map((row) => row.status);
    expect(statuses).toEqual([...new Set(Object.values(HTTP_STATUS_BY_CODE))].sort((a, b) => a - b));
  });

  it("names every error code the server answers, under its status, once", () => {
    const documented = rows.flatMap((row) => row.codes.map((code) => `${row.status} ${code}`)).sort();
    expect(documented).toEqual(ERROR_CODES.map((code) => `${HTTP_STATUS_BY_CODE[code]} ${code}`).sort());
  });
});
