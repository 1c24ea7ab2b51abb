// The not-found errors of the 404 half of the rule: what an actor gets for anything it may not see,
// so that existence is never leaked.
import { DomainError } from "../errors.js";

export const accountNotFound = (id: string) => new DomainError("ACCOUNT_NOT_FOUND", `account ${id} not found`);
export const environmentNotFound = (id: string) => new DomainError("ENVIRONMENT_NOT_FOUND", `environment ${id} not found`);
export const releaseNotFound = (id: string) => new DomainError("TOOL_RELEASE_NOT_FOUND", `tool release ${id} not found`);
export const grantNotFound = (id: string) =>
  new DomainError("ENVIRONMENT_TOOL_MIDDLEWARE_GRANT_NOT_FOUND", `environment tool middleware grant ${id} not found`);
export const tokenNotFound = (id: string) => new DomainError("API_TOKEN_NOT_FOUND", `API token ${id} not found`);
