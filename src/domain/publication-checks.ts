// Checks of the publications in a validate/apply body that need no database: unique names, names
// matching their definitions, valid definitions, sources, and the plan's definition size limit.
import { metadataDigest, validateDefinition, type ComponentSource, type MiddlewareDefinition } from "./definitions/index.js";
import { holdsNul, NUL_PROBLEM } from "../db/text.js";
import { DomainError, invalidRequest, limitExceeded } from "./errors.js";
import { limitsOf } from "./plans.js";

/** A publication as the request carries it; `definition` is untrusted JSON. */
export interface PublicationRequest {
  name: string;
  definition?: unknown;
  source?: SourceRequest | null | undefined;
}

interface SourceRequest {
  kind: string;
  componentId: string;
  componentRevision: number;
  componentName: string;
}

/** A publication whose definition passed every rule; `path` locates it in the request. */
export interface CheckedPublication {
  path: string;
  name: string;
  definition: MiddlewareDefinition;
  metadataDigest: string;
  source: ComponentSource | undefined;
}

const publicationPath = (index: number) => `publications[${index}]`;

/**
 * Runs every request-level check: duplicate names, name mismatches, the definition size limit of
 * the owner's plan (422), then invalid definitions and sources (400, every issue listed). The size
 * comes before the structural rules so an oversized definition is never walked by them.
 */
export function checkPublications(publications: readonly PublicationRequest[], ownerPlan: string): CheckedPublication[] {
  assertUniqueNames(publications);
  assertNamesMatch(publications);
  assertDefinitionSizes(publications, ownerPlan);
  return validatedPublications(publications);
}

function assertUniqueNames(publications: readonly PublicationRequest[]): void {
  const firstIndexByName = new Map<string, number>();
  const problems: string[] = [];
  publications.forEach((publication, index) => {
    const first = firstIndexByName.get(publication.name);
    if (first === undefined) firstIndexByName.set(publication.name, index);
    else problems.push(`${publicationPath(index)}.name: "${publication.name}" is already published by ${publicationPath(first)}`);
  });
  if (problems.length > 0) {
    throw new DomainError(
      "DUPLICATE_TOOL_MIDDLEWARE_PUBLICATION",
      problems.length === 1 ? problems[0]! : `${problems.length} duplicate publications`,
      problems,
    );
  }
}

function assertNamesMatch(publications: readonly PublicationRequest[]): void {
  const problems: string[] = [];
  publications.forEach((publication, index) => {
    const definitionName = (publication.definition as { name?: unknown } | null)?.name;
    // A missing or non-string name is a structural issue, reported with the others.
    if (typeof definitionName === "string" && definitionName !== publication.name) {
      problems.push(`${publicationPath(index)}.definition.name: "${definitionName}" does not match the publication name "${publication.name}"`);
    }
  });
  if (problems.length > 0) {
    throw new DomainError("TOOL_MIDDLEWARE_PUBLICATION_NAME_MISMATCH", problems.length === 1 ? problems[0]! : `${problems.length} name mismatches`, problems);
  }
}

function validatedPublications(publications: readonly PublicationRequest[]): CheckedPublication[] {
  const problems: string[] = [];
  const checked: CheckedPublication[] = [];
  publications.forEach((publication, index) => {
    const path = publicationPath(index);
    const validation = validateDefinition(publication.definition, `${path}.definition`);
    const sourceProblems = publication.source ? sourceIssues(publication.source, `${path}.source`) : [];
    problems.push(...(validation.ok ? [] : validation.issues), ...sourceProblems);
    if (!validation.ok || sourceProblems.length > 0) return;
    checked.push({
      path,
      name: publication.name,
      definition: validation.definition,
      metadataDigest: metadataDigest(validation.definition),
      source: publication.source
        ? {
            componentId: publication.source.componentId,
            componentRevision: publication.source.componentRevision,
            componentName: publication.source.componentName,
          }
        : undefined,
    });
  });
  if (problems.length > 0) throw invalidRequest(problems);
  return checked;
}

function sourceIssues(source: SourceRequest, path: string): string[] {
  const issues: string[] = [];
  if (source.kind !== "component") issues.push(`${path}.kind: expected "component", got ${JSON.stringify(source.kind)}`);
  if (!Number.isInteger(source.componentRevision) || source.componentRevision < 0) {
    issues.push(`${path}.componentRevision: expected an integer ≥ 0, got ${source.componentRevision}`);
  }
  if (source.componentName.trim() === "") issues.push(`${path}.componentName: must not be empty`);
  if (holdsNul(source.componentName)) issues.push(`${path}.componentName: ${NUL_PROBLEM}`);
  return issues;
}

/**
 * Definitions are strict (no unknown members, no defaults), so a valid definition's canonical JSON
 * is that of the request's JSON: measuring it first gives the same answer as measuring after validation.
 */
function assertDefinitionSizes(publications: readonly PublicationRequest[], ownerPlan: string): void {
  const limit = limitsOf(ownerPlan).definitionBytes;
  publications.forEach((publication, index) => {
    // JSON.stringify measures without recursion limits (canonicalJson recurses); key order does not change the size.
    const json = JSON.stringify(publication.definition ?? null) ?? "null";
    const bytes = Buffer.byteLength(json, "utf8");
    if (bytes > limit) {
      throw limitExceeded(`${publicationPath(index)}.definition is ${bytes} bytes as canonical JSON; plan ${ownerPlan} allows ${limit}`);
    }
  });
}

/** Apply publishes only what names its source (semantics.md: "each publication may carry source"). */
export function assertSourcesPresent(publications: readonly CheckedPublication[]): void {
  const problems = publications
    .filter((publication) => !publication.source)
    .map((publication) => `${publication.path}.source: required to publish ${publication.name} ${publication.definition.version}`);
  if (problems.length > 0) throw invalidRequest(problems);
}
