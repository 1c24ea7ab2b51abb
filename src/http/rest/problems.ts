// Rewords GraphQL's variable-coercion messages for REST clients, who never wrote a variable:
//   Variable "$body" got invalid value "yes" at "body.automatic"; Boolean cannot represent …
// becomes
//   body.automatic: Boolean cannot represent …
// and a variable bound to a path parameter is named as such (path.grantId: …). Enum values GraphQL
// suggests are put back as the words REST bodies use (`Did you mean the enum value "ById"?`).
import { RELEASE_SELECTOR_TYPES } from "../../domain/grant-release-selector.js";
import { withSpecWords } from "./enum-words.js";

/** The words of the enums REST bodies carry (the release selector's `type`). */
const BODY_ENUM_WORDS = [...RELEASE_SELECTOR_TYPES];

const COERCION = /^Variable "\$(\w+)" got invalid value (.*?)(?: at "([^"]+)")?; (.*)$/s;
const MISSING = /^Variable "\$(\w+)" of (?:required|non-null) type "[^"]+" was not provided\.$/;

export function restProblem(graphQLMessage: string, pathParams: Record<string, string>): string {
  const message = withSpecWords(BODY_ENUM_WORDS, graphQLMessage);
  const where = (variable: string) => (variable in pathParams ? `path.${variable}` : variable);
  const coercion = COERCION.exec(message);
  if (coercion) {
    const [, variable, value, at, reason] = coercion;
    const location = at ? (variable! in pathParams ? `path.${at}` : at) : where(variable!);
    return reason!.includes(value!) ? `${location}: ${reason}` : `${location}: ${value} is invalid: ${reason}`;
  }
  const missing = MISSING.exec(message);
  if (missing) return `${where(missing[1]!)}: required`;
  return message;
}
