// Query limits of the public /graphql endpoint, enforced by graphql-armor before any resolver runs.
// A rejected document is the client's fault: 400 REQUEST_INVALID, the armor message naming the limit.
// docs/graphql-limits.md explains each number; REST documents must fit them too (hardening.test.ts).
import { EnvelopArmor } from "@escape.tech/graphql-armor";
import type { GraphQLError, ValidationContext } from "graphql";
import { invalidRequest } from "../domain/errors.js";
import { graphQLErrorFor } from "./error-codes.js";

export const GRAPHQL_LIMITS = {
  /** Nesting of fields; fragments do not add a level. account → environments → grants → release → owner is 6–8. */
  maxDepth: 10,
  /** Aliased fields per operation; REST documents alias up to ~8 fields of one type. */
  maxAliases: 15,
  /** Lexical tokens of the whole document (names, punctuation, values); comments are free. */
  maxTokens: 2000,
  /** Directive uses per operation (@include, @skip). */
  maxDirectives: 10,
  /**
   * graphql-armor's estimate: 1 per scalar, 2 per object, ×1.5 per level, × a literal `first`/`last`.
   * A page of 50 (the default page size) full grant views costs ~14,700; pages nested in pages with
   * literal sizes do not fit (pass those sizes as variables: the execution budget below weighs them).
   */
  maxCost: 20000,
  /**
   * A second budget at execution time, when variables are known (src/graphql/complexity.ts): one per
   * field, a connection's selection × its page size. A REST page of 500 grant views costs ~14,000,
   * three levels of default (50) pages ~28,000; pages of hundreds nested in pages of hundreds do not fit.
   */
  maxExecutionCost: 50000,
  /** Items of a list argument (`nodes(ids:)`), literal or passed as a variable. */
  maxListArgumentItems: 100,
} as const;

/**
 * Armor calls rejections "Syntax Error"; the client gets REQUEST_INVALID with the plain message.
 * Validation rules report into the validation result. The token counter runs inside the parser,
 * where there is no validation context, so it throws and the error masking turns it into the same.
 */
function rejectAsInvalidRequest(context: ValidationContext | null, error: GraphQLError): void {
  const rejection = invalidRequest([error.message.replace(/^Syntax Error: /, "")]);
  if (!context) throw rejection;
  context.reportError(graphQLErrorFor(rejection));
}

const REJECT_AS_INVALID_REQUEST = { exposeLimits: true, propagateOnRejection: false, onReject: [rejectAsInvalidRequest] };

export interface ArmorOptions {
  /** Field suggestions ("Did you mean …?") reveal the schema, so they go when introspection does. */
  introspection: boolean;
}

/** The envelop plugins for Yoga's `plugins` option. */
export function graphqlArmorPlugins(options: ArmorOptions) {
  return new EnvelopArmor({
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth, flattenFragments: true, ignoreIntrospection: true, ...REJECT_AS_INVALID_REQUEST },
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases, ...REJECT_AS_INVALID_REQUEST },
    maxTokens: { n: GRAPHQL_LIMITS.maxTokens, ...REJECT_AS_INVALID_REQUEST },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives, ...REJECT_AS_INVALID_REQUEST },
    costLimit: { maxCost: GRAPHQL_LIMITS.maxCost, flattenFragments: true, ignoreIntrospection: true, ...REJECT_AS_INVALID_REQUEST },
    blockFieldSuggestion: { enabled: !options.introspection, mask: "" },
  }).protect().plugins;
}
