// Which methods a path offers, read from the router's table, and the answer to any other method:
// 405 with `Allow` on a path the server serves, 404 elsewhere. The router's fallback answers with
// it, and so does node:http for methods a fetch Request cannot carry (node-guards.ts).
import type { GraphQLError } from "graphql";
import { DomainError } from "../../domain/errors.js";
import { graphQLErrorFor } from "../../graphql/error-codes.js";
import { errorResponse, errorResponseFor } from "../errors.js";

/** In the order `Allow` lists them. */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

export type AllowedMethods = (path: string) => string[];
export type MethodRefusal = (method: string, path: string) => Response;
type Refuse = (error: GraphQLError, headers: Record<string, string>) => Response;

/**
 * From itty-router's table ([method, regex, …] entries): the methods whose routes match the path,
 * and OPTIONS beside them (the fallback answers it). Read when asked, so routes added later count.
 */
export function allowedMethodsIn(routes: readonly (readonly [string, RegExp, ...unknown[]])[]): AllowedMethods {
  return (path) => {
    const offered = new Set(routes.filter(([method, regex]) => method !== "ALL" && regex.test(path)).map(([method]) => method));
    if (offered.size > 0) offered.add("OPTIONS");
    return METHOD_ORDER.filter((method) => offered.has(method));
  };
}

/** `shapeFor` renders a path's refusal in its surface's error shape (/graphql keeps GraphQL's). */
export function methodRefusal(allowed: AllowedMethods, shapeFor: (path: string) => Refuse = () => errorResponse): MethodRefusal {
  return (method, path) => {
    const methods = allowed(path);
    if (methods.length === 0) return errorResponseFor("NOT_FOUND", `no route for ${method} ${path}`);
    const refusal = graphQLErrorFor(new DomainError("METHOD_NOT_ALLOWED", `method ${method} not allowed; use ${methods.join(", ")}`));
    return shapeFor(path)(refusal, { allow: methods.join(", ") });
  };
}
