// How GraphQL names enum values: the spec's word in SCREAMING_SNAKE_CASE (`de-published` →
// `DE_PUBLISHED`, `noChange` → `NO_CHANGE`, `ById` → `BY_ID`), the convention GraphQL clients and
// linters expect. The schema keeps the spec's words as the values' internal values, and REST, which
// speaks the words, converts at its boundary with this same rule.

export function graphQLEnumName(word: string): string {
  return word
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/-/g, "_")
    .toUpperCase();
}
