// GraphQL enums for the registry's string states. Values are the spec's words (`de-published`,
// `noChange`, `ById`); GraphQL names them by one rule (enum-names.ts: `DE_PUBLISHED`, `NO_CHANGE`,
// `BY_ID`), which the REST layer applies in reverse, so the mapping is not a table per enum.
import { builder } from "./builder.js";
import { graphQLEnumName } from "./enum-names.js";

/** A GraphQL enum whose values are the spec's `words` (with their descriptions), named by graphQLEnumName. */
export function enumOfSpecWords<const T extends string>(name: string, description: string, words: Record<T, string>) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(
      Object.entries<string>(words).map(([word, wordDescription]) => [graphQLEnumName(word), { value: word, description: wordDescription }]),
    ) as Record<string, { value: T; description: string }>,
  });
}

export const GrantLifecycle = enumOfSpecWords("GrantLifecycle", "State of a grant.", {
  active: "Live: listed and readable.",
  deleted: "Soft-deleted; may be restored.",
});
export const ReleaseLifecycle = enumOfSpecWords("ReleaseLifecycle", "State of a tool release.", {
  published: "Available: may be granted; its grants are live.",
  "de-published": "Withdrawn by its owner; its grants are hidden until it is restored.",
  superseded: "Replaced by mutable re-publication at the same coordinate; existing pinned grants keep working.",
});
export const ReleaseOrigin = enumOfSpecWords("ReleaseOrigin", "Who published a release.", {
  ordinary: "Published by an account.",
  "protected-system": "Provisioned by the system; it cannot be de-published or restored by users.",
});
export const SystemAvailability = enumOfSpecWords("SystemAvailability", "How a release becomes available to environments.", {
  grantable: "Granted explicitly (every ordinary release).",
  "auto-granted": "Granted by the system to environments automatically.",
  ambient: "Available everywhere without a grant.",
});
export const AccountPlan = enumOfSpecWords("AccountPlan", "Plan of an account; sets its limits (see docs/semantics.md).", {
  free: "20 active grants per environment, 50 published releases, 3 environments, 5 webhooks, 256 KiB definitions.",
  team: "500 active grants per environment, 5,000 published releases, 50 environments, 50 webhooks, 1 MiB definitions.",
  unlimited: "No count limits; 4 MiB definitions.",
});
export const EnvironmentRole = enumOfSpecWords("EnvironmentRole", "Role of an account an environment is shared with.", {
  viewer: "May list and read grants and validate changes.",
  deployer: "Viewer, plus create, delete and restore grants and apply changes.",
});
