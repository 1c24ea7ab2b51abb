// Decoding Relay global ids without throwing. Pothos decodes every `ID` argument of `node` and
// `nodes` while it maps arguments, and the complexity plugin maps the arguments of the whole
// operation when the first root field resolves: a malformed id used to fail that first field
// (`me`, non-null) and so null every sibling. Here a malformed id decodes to a marker, and the
// field that received it reports REQUEST_INVALID at its own path (`["node"]`, `["nodes", 1]`).
import { decodeGlobalID } from "@pothos/plugin-relay";
import { PothosValidationError } from "@pothos/core";
import { invalidRequest } from "../domain/errors.js";
import type { GlobalId } from "./node-visibility.js";

/** No GraphQL type can have this name, so a marked id resolves to nothing if it ever gets further. */
const MALFORMED = "!malformed";

export function decodeGlobalIdLeniently(globalId: string): GlobalId {
  try {
    return decodeGlobalID(globalId);
  } catch (error) {
    if (error instanceof PothosValidationError) return { typename: MALFORMED, id: globalId };
    throw error;
  }
}

/** The REQUEST_INVALID error of a malformed id, or undefined for a well-formed one. */
export function malformedGlobalIdError(argument: string, globalId: GlobalId): Error | undefined {
  return globalId.typename === MALFORMED ? invalidRequest([`${argument}: invalid global id ${JSON.stringify(globalId.id)}`]) : undefined;
}
