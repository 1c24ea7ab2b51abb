// The auth scopes of @pothos/plugin-scope-auth. Each scope is a check of the domain's permission
// policy, which throws the error the rule prescribes (a not-found code for what the actor may not
// see, AUTH_FORBIDDEN for what it may see but not do, AUTH_UNAUTHORIZED without credentials).
// Scope-auth catches it (`treatErrorsAsUnauthorized`) and `unauthorizedError` hands it on unchanged.
import { AuthScopeFailureType, type AuthFailure, type ForbiddenResult } from "@pothos/plugin-scope-auth";
import { forbidden } from "../domain/errors.js";
import { requireAccountVisible, requireDeletedGrantsReadable, type EnvironmentOwnership } from "../domain/permissions/index.js";
import type { Context } from "./context.js";

export interface AuthScopes {
  /** The actor may see this account (itself; administrators: any); ACCOUNT_NOT_FOUND otherwise. */
  accountVisible: string;
  /** The actor may list this environment's deleted grants (its owner, administrators); AUTH_FORBIDDEN otherwise. */
  deletedGrantsReadable: EnvironmentOwnership;
}

/** Runs a policy check that throws when it denies. */
const passes = (check: () => void): true => {
  check();
  return true;
};

export const authScopes = (context: Context) => ({
  accountVisible: (accountId: string) => passes(() => requireAccountVisible(context.actor(), accountId)),
  deletedGrantsReadable: (environment: EnvironmentOwnership) => passes(() => requireDeletedGrantsReadable(context.actor(), environment)),
});

/** The error a policy check threw, unchanged; AUTH_FORBIDDEN for a denial without one. */
export function unauthorizedError(_parent: unknown, _context: unknown, _info: unknown, result: ForbiddenResult): Error {
  return thrownBy(result.failure) ?? forbidden(result.message);
}

function thrownBy(failure: AuthFailure): Error | undefined {
  switch (failure.kind) {
    case AuthScopeFailureType.AuthScope:
    case AuthScopeFailureType.AuthScopeFunction:
      return failure.error ?? undefined;
    case AuthScopeFailureType.AnyAuthScopes:
    case AuthScopeFailureType.AllAuthScopes:
      return failure.failures.map(thrownBy).find((error) => error !== undefined);
    default:
      return undefined;
  }
}
