// Validation rules beyond graphql-js's: literal lists over GRAPHQL_LIMITS.maxListArgumentItems
// (list-limits.ts) and, when introspection is off, `__schema` and `__type` (`__typename` stays).
import { NoSchemaIntrospectionCustomRule } from "graphql";
import type { Plugin } from "graphql-yoga";
import { ListArgumentLimitRule } from "../../../graphql/list-limits.js";

export function useListArgumentLimit(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(ListArgumentLimitRule);
    },
  };
}

export function useDisabledIntrospection(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(NoSchemaIntrospectionCustomRule);
    },
  };
}
