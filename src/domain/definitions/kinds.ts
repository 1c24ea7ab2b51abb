// The enumerated `kind`/`tag` values the service accepts today.
// Kinds whose value shape is shared live here so a new one is a one-word change; a kind
// with a new value shape also needs a branch in schema.ts.

export const SCOPE_KINDS = ["monomorphic"] as const;
export const TYPE_KINDS = ["ref"] as const;
export const OPTION_SHAPE_KINDS = ["scalar"] as const;
export const OPTION_DEFAULT_KINDS = ["bool"] as const;
export const FLAG_SHAPE_KINDS = ["bool-flag"] as const;
export const CONSTRAINT_KINDS = ["requires-all"] as const;
export const CONSTRAINT_VALUE_KINDS = ["present"] as const;
export const ERROR_KINDS = ["usage-error"] as const;
export const ROLE_TAGS = ["multimodal"] as const;
