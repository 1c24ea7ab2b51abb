// What is wrong with a REST request's values, in REST's words, checked before the route's document
// runs. graphql-js coerces each variable and reports every problem with its path, the value and the
// reason (coerceInputValue); REST clients never wrote a variable, so a problem is placed where the
// request carries the value: `body.automatic: Boolean cannot represent …`, `path.grantId: …`. Enum
// values GraphQL names are put back as the words REST bodies use (`Did you mean the enum value "ById"?`).
import { coerceInputValue, isNonNullType, typeFromAST, type GraphQLInputType, type GraphQLSchema, type OperationDefinitionNode } from "graphql";
import { inspect } from "graphql/jsutils/inspect.js";
import { RELEASE_SELECTOR_TYPES } from "../../domain/grant-release-selector.js";
import { withSpecWords } from "./enum-words.js";

/** The words of the enums REST bodies carry (the release selector's `type`). */
const BODY_ENUM_WORDS = [...RELEASE_SELECTOR_TYPES];

/** Every problem of `inputs` against the operation's variables; none when the document may run. */
export function variableProblems(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  inputs: Record<string, unknown>,
  pathParams: Record<string, string>,
): string[] {
  const problems: string[] = [];
  const inPath = (variable: string) => Object.hasOwn(pathParams, variable);
  for (const definition of operation.variableDefinitions ?? []) {
    const variable = definition.variable.name.value;
    // The document was validated at start-up: every variable's type is an input type of the schema.
    const type = typeFromAST(schema, definition.type) as GraphQLInputType;
    const where = inPath(variable) ? `path.${variable}` : variable;
    if (!Object.hasOwn(inputs, variable) || inputs[variable] === undefined) {
      if (isNonNullType(type) && !definition.defaultValue) problems.push(`${where}: required`);
      continue;
    }
    const value = inputs[variable];
    if (value === null && isNonNullType(type)) {
      problems.push(`${where}: must not be null`);
      continue;
    }
    coerceInputValue(value, type, (path, invalid, error) => {
      const location =
        path.length === 0
          ? where
          : `${inPath(variable) ? "path." : ""}${variable}${path.map((key) => (typeof key === "number" ? `[${key}]` : `.${key}`)).join("")}`;
      const shown = withSpecWords(BODY_ENUM_WORDS, inspect(invalid));
      const reason = withSpecWords(BODY_ENUM_WORDS, error.message);
      problems.push(reason.includes(shown) ? `${location}: ${reason}` : `${location}: ${shown} is invalid: ${reason}`);
    });
  }
  return problems;
}
