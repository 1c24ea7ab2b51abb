// The admin commands' options as domain inputs, checked with the domain's own schemas before the
// database is opened: every bad value is reported, one line each, named by its option.
import type { z } from "zod";
import { accountInput, environmentInput, inputProblems, revokeInput, shareInput, tokenInput } from "../domain/inputs.js";

export type OptionValues = Partial<Record<string, string | boolean>>;

export class InvalidOptionsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "InvalidOptionsError";
  }
}

const OPTION_OF_FIELD: Record<string, string> = {
  accountId: "account",
  environmentId: "environment",
  expiresAt: "expires-at",
  versionCheck: "version-check",
};

const optionName = (field: string) => `--${OPTION_OF_FIELD[field] ?? field}`;

function checked<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const problems = inputProblems(schema, value, optionName);
  if (problems.length > 0) throw new InvalidOptionsError(problems);
  return schema.parse(value);
}

const text = (value: string | boolean | undefined) => (typeof value === "string" ? value : undefined);
const flag = (value: string | boolean | undefined) => value === true;

/** `2030-01-01` or `2030-01-01T12:00:00Z`; anything else is an invalid date (not, as for `new Date`, a guess). */
function isoDate(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : new Date(Number.NaN);
}

export const accountOptions = (options: OptionValues) =>
  checked(accountInput, { name: text(options.name), email: text(options.email), plan: text(options.plan) ?? "free", admin: flag(options.admin) });

export const environmentOptions = (options: OptionValues) =>
  checked(environmentInput, { accountId: text(options.account), name: text(options.name), versionCheck: flag(options["version-check"]) });

export const shareOptions = (options: OptionValues) =>
  checked(shareInput, { environmentId: text(options.environment), accountId: text(options.account), role: text(options.role) });

export const tokenOptions = (options: OptionValues) =>
  checked(tokenInput, { accountId: text(options.account), name: text(options.name), expiresAt: isoDate(text(options["expires-at"])) });

export const revokeOptions = (options: OptionValues) => checked(revokeInput, { id: text(options.id) });

/** `--account ID` of the list commands: optional, a UUID when given. */
export const listOptions = (options: OptionValues) => checked(environmentInput.pick({ accountId: true }).partial(), { accountId: text(options.account) });

const ADMIN_TOKEN_NAME = "admin (toolgate token create --admin)";

/** `token create --admin`: the bootstrap admin's token; the account is found, not given. */
export function adminTokenOptions(options: OptionValues) {
  if (options.account !== undefined) throw new InvalidOptionsError(["--admin: issues the bootstrap admin's token; leave out --account"]);
  return checked(tokenInput.pick({ name: true, expiresAt: true }), {
    name: text(options.name) ?? ADMIN_TOKEN_NAME,
    expiresAt: isoDate(text(options["expires-at"])),
  });
}
