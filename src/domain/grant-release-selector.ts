// Release selectors: how a grant creation names the release it grants (semantics.md "Grants").
// `ById` accepts published and superseded releases; `ByCoordinates` (owner e-mail, name, version)
// names the current, published release at that coordinate.
import { findFirstSelected, type Db, type Prisma } from "../db/client.js";
import { holdsNul } from "../db/text.js";
import { invalidRequest } from "./errors.js";
import { GRANTABLE_RELEASE_WHERE } from "./permissions/index.js";
import { referencedReleaseNotFound } from "./releases.js";

export const RELEASE_SELECTOR_TYPES = ["ById", "ByCoordinates"] as const;
export type ReleaseSelectorType = (typeof RELEASE_SELECTOR_TYPES)[number];

/** A selector as a request carries it: fields not used by its type must be absent (or null). */
export interface ReleaseSelectorInput {
  type: string;
  releaseId?: string | null | undefined;
  account?: string | null | undefined;
  name?: string | null | undefined;
  version?: string | null | undefined;
}

/**
 * What a grant change reads of the release it grants: every column but the definition, which is
 * 5–50 KB of text that no grant rule reads (answers read it by digest, src/db/definition-texts.ts).
 */
export const GRANTED_RELEASE_COLUMNS = {
  id: true,
  ownerAccountId: true,
  name: true,
  version: true,
  sourceKind: true,
  componentId: true,
  componentRevision: true,
  componentName: true,
  metadataVersion: true,
  metadataDigest: true,
  sourceDigest: true,
  immutable: true,
  lifecycle: true,
  origin: true,
  systemAvailability: true,
  currentCoordinate: true,
  createdAt: true,
  createdById: true,
  stateChangedAt: true,
  stateChangedById: true,
} satisfies Prisma.ToolReleaseSelect;
export type GrantedRelease = Prisma.ToolReleaseGetPayload<{ select: typeof GRANTED_RELEASE_COLUMNS }>;

/**
 * A selected release also brings its owner's identity, joined in the same statement: with it a
 * grant's answer (its release and the release's owner) is what its write read, not read back.
 */
const SELECTED_RELEASE_SELECT = { ...GRANTED_RELEASE_COLUMNS, owner: { select: { id: true, name: true, email: true } } } satisfies Prisma.ToolReleaseSelect;
export type SelectedRelease = Prisma.ToolReleaseGetPayload<{ select: typeof SELECTED_RELEASE_SELECT }>;

export type ReleaseSelector = { type: "ById"; releaseId: string } | { type: "ByCoordinates"; account: string; name: string; version: string };

const FIELDS_BY_TYPE: Record<ReleaseSelectorType, readonly (keyof ReleaseSelectorInput)[]> = {
  ById: ["releaseId"],
  ByCoordinates: ["account", "name", "version"],
};
const SELECTOR_FIELDS = ["releaseId", "account", "name", "version"] as const;

/** Checks a selector's shape; throws REQUEST_INVALID listing every problem, prefixed by `path`. */
export function parseReleaseSelector(input: ReleaseSelectorInput, path = "release"): ReleaseSelector {
  if (!(RELEASE_SELECTOR_TYPES as readonly string[]).includes(input.type)) {
    throw invalidRequest([`${path}.type: "${input.type}" is not a selector type; use ${RELEASE_SELECTOR_TYPES.join(" or ")}`]);
  }
  const type = input.type as ReleaseSelectorType;
  const wanted = FIELDS_BY_TYPE[type];
  const problems: string[] = [];
  for (const field of SELECTOR_FIELDS) {
    const value = input[field];
    const present = value !== undefined && value !== null;
    if (wanted.includes(field) && !present) problems.push(`${path}.${field}: required when type is ${type}`);
    else if (wanted.includes(field) && value!.trim() === "") problems.push(`${path}.${field}: must not be empty`);
    else if (!wanted.includes(field) && present) problems.push(`${path}.${field}: not allowed when type is ${type}`);
  }
  if (problems.length > 0) throw invalidRequest(problems);
  return type === "ById"
    ? { type, releaseId: input.releaseId! }
    : { type, account: input.account!.trim().toLowerCase(), name: input.name!, version: input.version! };
}

function describeSelector(selector: ReleaseSelector): string {
  return selector.type === "ById" ? selector.releaseId : `${selector.account}/${selector.name}@${selector.version}`;
}

/**
 * The release a selector names, if it may be granted now; throws REQUEST_INVALID for a malformed
 * selector and REFERENCED_TOOL_RELEASE_NOT_FOUND for an unknown or de-published release.
 */
export async function resolveReleaseSelector(db: Db, input: ReleaseSelectorInput | ReleaseSelector, path = "release"): Promise<SelectedRelease> {
  const selector = parseReleaseSelector(input, path);
  const release = await findSelectedRelease(db, selector);
  if (!release) throw selectedReleaseNotFound(selector);
  return release;
}

/** The release a parsed selector names if it may be granted now, else null: for callers that must check other things first. */
export async function findSelectedRelease(db: Db, selector: ReleaseSelector): Promise<SelectedRelease | null> {
  if (selector.type === "ById") return findReleaseWithOwner(db, { id: selector.releaseId, ...GRANTABLE_RELEASE_WHERE });
  if ([selector.account, selector.name, selector.version].some(holdsNul)) return null;
  return findReleaseWithOwner(db, {
    owner: { email: selector.account },
    name: selector.name,
    version: selector.version,
    lifecycle: "published",
    currentCoordinate: true,
  });
}

const findReleaseWithOwner = (db: Db, where: Prisma.ToolReleaseWhereInput) => findFirstSelected(db, "toolRelease", where, SELECTED_RELEASE_SELECT);

/** REFERENCED_TOOL_RELEASE_NOT_FOUND for what the selector names. */
export const selectedReleaseNotFound = (selector: ReleaseSelector) => referencedReleaseNotFound(describeSelector(selector));
