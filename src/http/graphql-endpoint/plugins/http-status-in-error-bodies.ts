// Yoga turns `extensions.http` into the response's status and headers and drops it from the body;
// toolgate keeps `extensions.http.status` in the body too, so a client reading one error of a
// partial result knows its status without looking at the response.
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";

export function useHttpStatusInErrorBodies(): Plugin {
  return {
    onResultProcess({ result }) {
      if (Array.isArray(result) || Symbol.asyncIterator in result || !result.errors?.length) return;
      const errors = result.errors.map((error) => withoutYogaFlags(error instanceof GraphQLError ? error.toJSON() : error));
      result.stringify = () => JSON.stringify({ ...result, errors });
    },
  };
}

/** Yoga marks the errors it raises `extensions.http.spec` (its own status switch); the body keeps only what clients use. */
function withoutYogaFlags<T extends { extensions?: Record<string, unknown> | undefined }>(error: T): T {
  const http = error.extensions?.http as Record<string, unknown> | undefined;
  if (!http || !("spec" in http)) return error;
  const { spec: _spec, ...rest } = http;
  return { ...error, extensions: { ...error.extensions, http: rest } };
}
