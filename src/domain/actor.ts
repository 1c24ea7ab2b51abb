// Who is making a request. Resolved once per request from its API token.
import type { Account } from "../db/generated/sqlite/client.js";
import { unauthorized } from "./errors.js";

export type Actor = Account;

export type Authentication = { kind: "authenticated"; actor: Actor } | { kind: "anonymous" } | { kind: "rejected"; reason: string };

export function requireActor(authentication: Authentication): Actor {
  if (authentication.kind === "authenticated") return authentication.actor;
  throw authentication.kind === "anonymous" ? unauthorized("missing API token: send Authorization: Bearer <token>") : unauthorized(authentication.reason);
}
