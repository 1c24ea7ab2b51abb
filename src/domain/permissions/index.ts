// The permission policy: the one authority on who may see and do what (semantics.md "Permissions").
// Domain operations call it before they act; the GraphQL layer's auth scopes, list filters and
// node lookups delegate to it and hold no rule of their own.
export * from "./not-found.js";
export * from "./roles.js";
export * from "./visibility.js";
export * from "./resolvable-ids.js";
