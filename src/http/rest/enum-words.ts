// REST speaks the spec's words for enum values (`ById`, `noChange`, `de-published`); the GraphQL
// schema names them in SCREAMING_SNAKE_CASE (`BY_ID`, `NO_CHANGE`, `DE_PUBLISHED`). These convert
// at the REST boundary with the schema's own rule (graphQLEnumName), given the enum's words.
import { graphQLEnumName } from "../../graphql/enum-names.js";

/** The spec word GraphQL calls `name` (`NO_CHANGE` → `noChange`). */
export function specWordOf<const T extends string>(words: readonly T[], name: string): T {
  const word = words.find((candidate) => graphQLEnumName(candidate) === name);
  if (word === undefined) throw new Error(`no spec word for the GraphQL enum value ${name}`);
  return word;
}

/** The GraphQL name of a request's spec word (`ById` → `BY_ID`); anything else unchanged, for GraphQL to report. */
export function graphQLNameOf(words: readonly string[], value: unknown): unknown {
  return typeof value === "string" && words.includes(value) ? graphQLEnumName(value) : value;
}

/** A GraphQL message about these words' enum with its GraphQL names put back as the words (`Did you mean "ById"?`). */
export function withSpecWords(words: readonly string[], message: string): string {
  return words.reduce((reworded, word) => reworded.replaceAll(`"${graphQLEnumName(word)}"`, `"${word}"`), message);
}
