// Short, human wording for structural (zod) issues: "required", "expected string, got number".
import type { z } from "zod";

/** The JSON type name of a value, as used in "got …". */
function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function shown(value: unknown): string {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return JSON.stringify(value);
  }
  return jsonTypeOf(value);
}

const EXPECTED_NAMES: Record<string, string> = { record: "object", int: "integer" };

/** Per-parse error map: every zod issue not worded by its own schema lands here. */
export const structuralMessage: z.core.$ZodErrorMap = (issue) => {
  if (issue.input === undefined && issue.code !== "unrecognized_keys") return "required";
  switch (issue.code) {
    case "invalid_type":
      return `expected ${EXPECTED_NAMES[issue.expected] ?? issue.expected}, got ${jsonTypeOf(issue.input)}`;
    case "invalid_value": {
      const values = issue.values.map(shown);
      const expected = values.length === 1 ? values[0] : `one of ${values.join(", ")}`;
      return `expected ${expected}, got ${shown(issue.input)}`;
    }
    case "too_small":
      return `must be at least ${String(issue.minimum)}`;
    case "too_big":
      return `must be at most ${String(issue.maximum)}`;
    default:
      return "invalid value";
  }
};

/** Error wording for a schema whose expectation zod cannot name (e.g. "string or null"). */
export function expecting(expected: string): z.core.$ZodErrorMap {
  return (issue) => (issue.input === undefined ? "required" : `expected ${expected}, got ${jsonTypeOf(issue.input)}`);
}

/** Integers: a fractional or unsafe number is shown by value ("expected integer, got 1.5"). */
export const integerMessage: z.core.$ZodErrorMap = (issue) => {
  if (issue.input === undefined) return "required";
  const got = typeof issue.input === "number" ? String(issue.input) : jsonTypeOf(issue.input);
  return `expected integer, got ${got}`;
};
