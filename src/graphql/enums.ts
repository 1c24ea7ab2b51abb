// GraphQL enums for the registry's string states. Stored values are the spec's lowercase words
// (`de-published`); GraphQL names are their SCREAMING_SNAKE form (`DE_PUBLISHED`). The REST layer
// turns them back with `restEnumValue`, so the mapping is one rule, not a table per enum.
import { builder } from "./builder.js";

function storedValues<const T extends readonly string[]>(name: string, description: string, values: T) {
  return builder.enumType(name, {
    description,
    values: Object.fromEntries(values.map((value) => [value.toUpperCase().replace(/-/g, "_"), { value }])) as Record<
      string,
      { value: T[number] }
    >,
  });
}

export const GrantLifecycle = storedValues("GrantLifecycle", "State of a grant: active, or soft-deleted.", ["active", "deleted"] as const);
export const ReleaseLifecycle = storedValues(
  "ReleaseLifecycle",
  "State of a tool release. `superseded` releases were replaced by mutable re-publication.",
  ["published", "de-published", "superseded"] as const,
);
export const ReleaseOrigin = storedValues("ReleaseOrigin", "Who published a release: users (`ordinary`) or the system.", [
  "ordinary",
  "protected-system",
] as const);
export const SystemAvailability = storedValues("SystemAvailability", "How a release becomes available to environments.", [
  "grantable",
  "auto-granted",
  "ambient",
] as const);
export const AccountPlan = storedValues("AccountPlan", "Plan of an account; sets its limits.", ["free", "team", "unlimited"] as const);
export const EnvironmentRole = storedValues("EnvironmentRole", "Role of an account an environment is shared with.", [
  "viewer",
  "deployer",
] as const);
