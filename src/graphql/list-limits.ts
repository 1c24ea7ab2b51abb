// Caps the items of list arguments (`nodes(ids:)`): a literal list is refused while the document is
// validated, a list passed as a variable when the field runs, both as 400 REQUEST_INVALID. Without
// the cap, one request of ~49,000 ids held the event loop for 27 s.
import { getNullableType, isListType, Kind, type ASTVisitor, type ValidationContext } from "graphql";
import { invalidRequest } from "../domain/errors.js";
import { GRAPHQL_LIMITS } from "./armor.js";
import { graphQLErrorFor } from "./error-codes.js";

const tooManyItems = (field: string, argument: string, items: number) =>
  `${field}(${argument}:) has ${items} items; at most ${GRAPHQL_LIMITS.maxListArgumentItems} are allowed per request`;

export function ListArgumentLimitRule(context: ValidationContext): ASTVisitor {
  return {
    Argument(node) {
      const argument = context.getArgument();
      const field = context.getFieldDef();
      if (!argument || !field || !isListType(getNullableType(argument.type))) return;
      if (node.value.kind === Kind.LIST && node.value.values.length > GRAPHQL_LIMITS.maxListArgumentItems) {
        context.reportError(graphQLErrorFor(invalidRequest([tooManyItems(field.name, argument.name, node.value.values.length)])));
      }
    },
  };
}

/** The execution-time half, for lists that arrived as variables. */
export function assertListArgumentWithinLimit(field: string, argument: string, items: readonly unknown[]): void {
  if (items.length > GRAPHQL_LIMITS.maxListArgumentItems) throw invalidRequest([tooManyItems(field, argument, items.length)]);
}
