// The JSON texts that values handed out during one request were parsed from. Stored definitions are
// canonical JSON, and most serialize back to exactly their stored text; a REST body writes that text
// instead of serializing the value again (src/http/rest/spliced-json.ts), which was a quarter of the
// CPU of a list of 50 grant views (docs/performance.md).

/** A JSON text, as a string or as its UTF-8 bytes (copied into a body rather than encoded). */
export type JsonText = string | Uint8Array;

/** Per request: value → the JSON text JSON.stringify would write for it. */
export class JsonSources {
  private readonly texts = new WeakMap<object, JsonText>();
  private count = 0;

  /** Notes that `value` serializes to `text`; the caller vouches for it (see `serializesTo`). */
  note(value: object, text: JsonText): void {
    if (!this.texts.has(value)) this.count += 1;
    this.texts.set(value, text);
  }

  textOf(value: object): JsonText | undefined {
    return this.texts.get(value);
  }

  get size(): number {
    return this.count;
  }
}

/**
 * Whether JSON.stringify(JSON.parse(text)) is `text` byte for byte. Canonical JSON sorts keys as
 * strings, while JavaScript objects list integer-like keys ("2", "10") first and in numeric order, so
 * a definition with such keys serializes differently from its stored text and is never spliced.
 */
export function serializesTo(value: unknown, text: string): boolean {
  return JSON.stringify(value) === text;
}
