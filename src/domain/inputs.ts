// What the management operations accept, declared once: the domain checks it, the CLI checks it
// before touching the database, and GraphQL's enums and scalars admit the same values.
import { z } from "zod";
import { holdsNul, NUL_PROBLEM } from "../db/text.js";
import { PLAN_LIMITS, type Plan } from "./plans.js";

const PLANS = Object.keys(PLAN_LIMITS) as [Plan, ...Plan[]];
const SHARE_ROLES = ["viewer", "deployer"] as const;

const EMAIL = /^[^\s@]+@[^\s@]+$/;
// The GraphQL UUID scalar's shape (graphql-scalars): any version, either case.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const quoted = (input: unknown) => JSON.stringify(input);
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: (issue) => (issue.input === undefined ? "is required" : `${quoted(issue.input)} is not one of ${values.join(", ")}`) });

// Missing values are named as such: the CLI passes what the user left out as undefined.
const text = () =>
  z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") }).refine((value) => !holdsNul(value), NUL_PROBLEM);
const name = text().refine((value) => value.trim() !== "", "must not be empty");
const email = text().refine((value) => EMAIL.test(value), { error: (issue) => `${quoted(issue.input)} is not an e-mail address` });
const uuid = text().refine((value) => UUID.test(value), { error: (issue) => `${quoted(issue.input)} is not a UUID` });

export const accountInput = z.object({
  name,
  email,
  plan: oneOf(PLANS).optional(),
  admin: z.boolean().optional(),
});

export const environmentInput = z.object({ accountId: uuid, name, versionCheck: z.boolean().optional() });

export const shareInput = z.object({ environmentId: uuid, accountId: uuid, role: oneOf(SHARE_ROLES) });

export const tokenInput = z.object({
  accountId: uuid,
  name,
  expiresAt: z
    .date({ error: "must be an ISO 8601 date-time" })
    .refine((date) => date.getTime() > Date.now(), "must be in the future")
    .optional(),
});

export const revokeInput = z.object({ id: uuid });

/** Every problem of `value` against `schema`, one line each, each field named by `label`. */
export function inputProblems(schema: z.ZodType, value: unknown, label: (field: string) => string): string[] {
  const parsed = schema.safeParse(value);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => `${label(issue.path.map(String).join("."))}: ${issue.message}`);
}
