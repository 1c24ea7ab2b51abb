// Validates an untrusted middleware definition: structure first (all issues at once), then,
// when the structure is sound, every definition rule.
import { formatIssue } from "./issues.js";
import { structuralMessage } from "./messages.js";
import { definitionRuleIssues } from "./rules.js";
import { middlewareDefinitionSchema, type MiddlewareDefinition } from "./schema.js";
import { structuralIssues } from "./structural.js";

export type DefinitionValidation = { ok: true; definition: MiddlewareDefinition } | { ok: false; issues: string[] };

/** Issues read `"<basePath><path>: <message>"`, e.g. `publications[0].definition.name: required`. */
export function validateDefinition(input: unknown, basePath: string): DefinitionValidation {
  const parsed = middlewareDefinitionSchema.safeParse(input, { error: structuralMessage });
  const issues = parsed.success ? definitionRuleIssues(parsed.data) : structuralIssues(parsed.error);
  if (parsed.success && issues.length === 0) return { ok: true, definition: parsed.data };
  return { ok: false, issues: issues.map((issue) => formatIssue(basePath, issue)) };
}
