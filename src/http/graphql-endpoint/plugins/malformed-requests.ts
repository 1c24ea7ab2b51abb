// A content type Yoga cannot parse gets 415 UNSUPPORTED_MEDIA_TYPE with a JSON body (Yoga sends an
// empty one), and a parse failure Yoga does not expect (malformed JSON in `?variables=` throws a bare
// SyntaxError, which error masking would call a 500) is 400 REQUEST_INVALID naming the parameter,
// as is JSON nested too deep to walk safely (json-depth.ts).
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { DomainError, invalidRequest } from "../../../domain/errors.js";
import { jsonDepthExceeds, tooDeep } from "../json-depth.js";

/** The query-string parameters GraphQL over GET carries as JSON. */
const JSON_SEARCH_PARAMS = ["variables", "extensions"] as const;

export function useMalformedRequestsAsRequestInvalid(): Plugin {
  return {
    onRequestParse({ request, url, requestParser, setRequestParser }) {
      if (!requestParser) {
        const contentType = request.headers.get("content-type") ?? "none";
        throw new DomainError("UNSUPPORTED_MEDIA_TYPE", `content-type ${contentType} is not supported; send application/json`);
      }
      const problems = request.method === "GET" ? JSON_SEARCH_PARAMS.flatMap((name) => jsonProblem(name, url.searchParams.get(name))) : [];
      if (problems.length > 0) throw invalidRequest(problems);
      setRequestParser(async (parsed) => {
        let params: Awaited<ReturnType<typeof requestParser>>;
        try {
          params = await requestParser(parsed);
        } catch (error) {
          if (error instanceof GraphQLError) throw error;
          throw invalidRequest([`request: ${error instanceof Error ? error.message : String(error)}`]);
        }
        if (jsonDepthExceeds(params)) throw invalidRequest([tooDeep("request")]);
        return params;
      });
    },
  };
}

function jsonProblem(name: string, value: string | null): string[] {
  if (value === null || value === "") return [];
  try {
    JSON.parse(value);
    return [];
  } catch (error) {
    return [`query.${name}: malformed JSON (${(error as Error).message})`];
  }
}
