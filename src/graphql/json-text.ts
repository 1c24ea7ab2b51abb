// A JSON value handed out as the UTF-8 text it was stored as. Resolvers return it for stored
// definitions: a REST body copies its bytes in place (src/http/rest/json-body.ts), while any other
// serializer (a /graphql response, an event) meets `toJSON` and gets the parsed value.

/** Set while `stringifyWithStandIns` runs: what `toJSON` answers instead of the parsed value. */
let standIn: ((text: JsonText) => string) | undefined;

/**
 * JSON.stringify's text of `value`, each JsonText in it written as the string `standInFor` gives
 * (called in the order JSON.stringify meets them), so that a caller can splice the stored bytes in
 * without parsing them. Undefined where JSON.stringify answers undefined.
 */
export function stringifyWithStandIns(value: unknown, standInFor: (text: JsonText) => string): string | undefined {
  standIn = standInFor;
  try {
    return JSON.stringify(value);
  } finally {
    standIn = undefined;
  }
}

export class JsonText {
  /**
   * @param utf8 the value's JSON text, never written to
   * @param identity what determines those bytes (equal identities, equal bytes), when known: a REST
   *   body's ETag hashes it instead of the bytes (src/http/rest/json-body.ts)
   */
  constructor(
    readonly utf8: Uint8Array,
    readonly identity?: string,
  ) {}

  /** The value itself: parsed at each call, so that nothing beyond the bytes is kept. */
  toJSON(): unknown {
    if (standIn) return standIn(this);
    return JSON.parse(Buffer.from(this.utf8.buffer, this.utf8.byteOffset, this.utf8.byteLength).toString("utf8"));
  }
}
