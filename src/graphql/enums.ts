// GraphQL enums for the registry's string states. Stored values are the spec's lowercase words
// (`de-published`); GraphQL names are their SCREAMING_SNAKE form (`DE_PUBLISHED`). The REST layer
// turns them back with `restEnumValue`, so the mapping is one rule, not a table per enum.
import { builder } from "./builder.js";

function storedValues<const T extends string>(name: string, description: string, values: Record<T, string>) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(
      Object.entries<string>(values).map(([value, valueDescription]) => [value.toUpperCase().replace(/-/g, "_"), { value, description: valueDescription }]),
    ) as Record<string, { value: T; description: string }>,
  });
}

export const GrantLifecycle = storedValues("GrantLifecycle", "State of a grant.", {
  active: "Live: listed and readable.",
  deleted: "Soft-deleted; may be restored.",
});
export const ReleaseLifecycle = storedValues("ReleaseLifecycle", "State of a tool release.", {
  published: "Available: may be granted; its grants are live.",
  "de-published": "Withdrawn by its owner; its grants are hidden until it is restored.",
  superseded: "Replaced by mutable re-publication at the same coordinate; existing pinned grants keep working.",
});
export const ReleaseOrigin = storedValues("ReleaseOrigin", "Who published a release.", {
  ordinary: "Published by an account.",
  "protected-system": "Provisioned by the system; it cannot be de-published or restored by users.",
});
export const SystemAvailability = storedValues("SystemAvailability", "How a release becomes available to environments.", {
  grantable: "Granted explicitly (every ordinary release).",
  "auto-granted": "Granted by the system to environments automatically.",
  ambient: "Available everywhere without a grant.",
});
export const AccountPlan = storedValues("AccountPlan", "Plan of an account; sets its limits (see docs/semantics.md).", {
  free: "20 active grants per environment, 50 published releases, 3 environments, 256 KiB definitions.",
  team: "500 active grants per environment, 5,000 published releases, 50 environments, 1 MiB definitions.",
  unlimited: "No count limits; 4 MiB definitions.",
});
export const EnvironmentRole = storedValues("EnvironmentRole", "Role of an account an environment is shared with.", {
  viewer: "May list and read grants and validate changes.",
  deployer: "Viewer, plus create, delete and restore grants and apply changes.",
});
