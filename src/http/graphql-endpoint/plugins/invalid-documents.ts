// Documents that fail validation (unknown fields, exceeded limits, disabled introspection) carry
// REQUEST_INVALID (status 400 in the body) like syntax errors do. The response's status is decided
// by graphql-status.ts: 400 for `application/graphql-response+json`, 200 for `application/json`.
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { HTTP_STATUS_BY_CODE, requestErrorFor } from "../../../graphql/error-codes.js";

export function useInvalidDocumentsAsRequestInvalid(): Plugin {
  return {
    onValidate() {
      return ({ valid, result, setResult }) => {
        if (!valid) setResult(result.map(asRequestInvalid));
      };
    },
  };
}

function asRequestInvalid(thrown: Error): GraphQLError {
  const error = thrown instanceof GraphQLError ? thrown : new GraphQLError(thrown.message);
  const code = error.extensions.code;
  const coded = typeof code === "string" && code in HTTP_STATUS_BY_CODE ? error : requestErrorFor([error]);
  return new GraphQLError(coded.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: coded.extensions });
}
