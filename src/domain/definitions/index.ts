// Middleware definitions: shape, rules, validation and content digests (no I/O).
import type { MiddlewareDefinition, PresentedSurface } from "./schema.js";

export * from "./kinds.js";
export * from "./schema.js";
export { validateDefinition } from "./validate.js";
export { canonicalJson, metadataDigest, sourceDigest, METADATA_VERSION, type ComponentSource } from "./digest.js";

/** What a release shows as its `definition` (docs/semantics.md, "Tool releases"). */
export function presentedSurface(definition: MiddlewareDefinition): PresentedSurface {
  return definition.scope.value.presented;
}
