// Where a stored definition's presented surface (`scope.value.presented`) lies in its text, found by
// scanning the bytes rather than parsing the text and serializing the surface again (~0.3 ms for a
// 50 KB definition, half of what a release read costs when its text is not cached).
//
// A stored text is canonicalJson's output, so the surface's bytes in it are canonicalJson of the
// surface. They are also exactly what JSON.stringify writes for the parsed surface unless an object
// in it has a key that is an array index (V8 orders those first, canonicalJson sorts them as text).
// The scan answers only when it can vouch for that: no such key, and every number, escape and
// separator written as JSON.stringify writes it; otherwise it answers undefined and the caller parses.

import { presentedSurface, type MiddlewareDefinition } from "./index.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** The escapes JSON.stringify writes by letter (\uXXXX for the other control characters). */
const LETTER_ESCAPES = new Set([QUOTE, BACKSLASH, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const LETTER_ESCAPED_CODES = new Set([0x08, 0x0c, 0x0a, 0x0d, 0x09]);
/** Longer than any number JSON.stringify writes (-1.7976931348623157e+308 is 24). */
const MAX_LITERAL_BYTES = 32;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const KEYWORDS = ["true", "false", "null"].map((keyword) => new TextEncoder().encode(keyword));
const PATH_BYTES = ["scope", "value", "presented"].map((key) => new TextEncoder().encode(key));

export interface ByteRange {
  start: number;
  end: number;
}

/** Thrown by the scanner when it cannot vouch for the text. */
class NotPlain extends Error {}

function notPlain(): never {
  throw new NotPlain();
}

class Scanner {
  private nextBackslash: number;

  constructor(private readonly bytes: Uint8Array) {
    this.nextBackslash = bytes.indexOf(BACKSLASH);
  }

  /** The range of the value at PATH[depth..] in the object starting at `at`; undefined when it has none. */
  find(at: number, depth: number): ByteRange | undefined {
    const bytes = this.bytes;
    if (bytes[at] !== OPEN_OBJECT) notPlain();
    let index = at + 1;
    if (bytes[index] === CLOSE_OBJECT) return undefined;
    for (;;) {
      if (bytes[index] !== QUOTE) notPlain();
      const keyEnd = this.skipString(index);
      if (bytes[keyEnd] !== COLON) notPlain();
      if (this.isKey(index + 1, keyEnd - 1, PATH_BYTES[depth]!)) {
        if (depth < PATH_BYTES.length - 1) return this.find(keyEnd + 1, depth + 1);
        return { start: keyEnd + 1, end: this.value(keyEnd + 1) };
      }
      index = this.skip(keyEnd + 1);
      if (bytes[index] === CLOSE_OBJECT) return undefined;
      if (bytes[index] !== COMMA) notPlain();
      index += 1;
    }
  }

  /** Whether the bytes from `start` to `end` are `key`'s. */
  private isKey(start: number, end: number, key: Uint8Array): boolean {
    if (end - start !== key.length) return false;
    for (let offset = 0; offset < key.length; offset++) if (this.bytes[start + offset] !== key[offset]) return false;
    return true;
  }

  /** The end of the value starting at `at`, unchecked (a sibling of the path). */
  private skip(at: number): number {
    const bytes = this.bytes;
    let depth = 0;
    let index = at;
    while (index < bytes.length) {
      const byte = bytes[index]!;
      if (byte === QUOTE) {
        index = this.skipString(index);
        if (depth === 0) return index;
        continue;
      }
      if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth += 1;
      else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        if (depth === 0) return index;
        depth -= 1;
        if (depth === 0) return index + 1;
      } else if (byte === COMMA && depth === 0) return index;
      index += 1;
    }
    return notPlain();
  }

  /** The end of the string starting at `at` (its opening quote), unchecked. */
  private skipString(at: number): number {
    const bytes = this.bytes;
    let index = at + 1;
    for (;;) {
      const quote = bytes.indexOf(QUOTE, index);
      if (quote < 0) notPlain();
      let backslashes = 0;
      while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
      if (backslashes % 2 === 0) return quote + 1;
      index = quote + 1;
    }
  }

  /** The end of the string starting at `at` (its opening quote), each escape one JSON.stringify writes. */
  private string(at: number): number {
    const bytes = this.bytes;
    if (bytes[at] !== QUOTE) notPlain();
    let index = at + 1;
    for (;;) {
      const quote = bytes.indexOf(QUOTE, index);
      if (quote < 0) notPlain();
      const backslash = this.backslashFrom(index);
      if (backslash < 0 || backslash > quote) return quote + 1;
      const escaped = bytes[backslash + 1]!;
      if (LETTER_ESCAPES.has(escaped)) index = backslash + 2;
      else if (escaped === 0x75 && this.controlEscape(backslash + 2)) index = backslash + 6;
      else notPlain();
    }
  }

  /** The first backslash at or after `index` (-1: none); remembered, as backslashes are rare and strings many. */
  private backslashFrom(index: number): number {
    if (this.nextBackslash !== -1 && this.nextBackslash < index) this.nextBackslash = this.bytes.indexOf(BACKSLASH, index);
    return this.nextBackslash;
  }

  /** Whether the four hex digits at `at` are a \\u escape JSON.stringify writes: a control character without a letter escape. */
  private controlEscape(at: number): boolean {
    const hex = String.fromCharCode(...this.bytes.subarray(at, at + 4));
    if (!/^00[01][0-9a-f]$/.test(hex)) return false;
    return !LETTER_ESCAPED_CODES.has(Number.parseInt(hex, 16));
  }

  /** The end of the value starting at `at`, checked: written as JSON.stringify writes the parsed value. */
  private value(at: number): number {
    const byte = this.bytes[at];
    if (byte === OPEN_OBJECT) return this.object(at);
    if (byte === OPEN_ARRAY) return this.array(at);
    if (byte === QUOTE) return this.string(at);
    return this.literal(at);
  }

  /** true, false, null or a number, written as JSON.stringify writes it. */
  private literal(at: number): number {
    const bytes = this.bytes;
    let end = at;
    while (end < bytes.length && bytes[end] !== COMMA && bytes[end] !== CLOSE_OBJECT && bytes[end] !== CLOSE_ARRAY) end++;
    if (this.plainInteger(at, end) || KEYWORDS.some((keyword) => this.isKey(at, end, keyword))) return end;
    if (end - at > MAX_LITERAL_BYTES) notPlain();
    const token = String.fromCharCode(...bytes.subarray(at, end));
    if (token === "" || String(Number(token)) !== token) notPlain();
    return end;
  }

  /** An integer of at most 15 digits without a leading zero (or 0): exact as a double, so JSON.stringify writes it as it is. */
  private plainInteger(start: number, end: number): boolean {
    const bytes = this.bytes;
    const first = bytes[start] === 0x2d ? start + 1 : start;
    const digits = end - first;
    if (digits < 1 || digits > 15 || (bytes[first] === DIGIT_0 && (digits > 1 || first > start))) return false;
    return this.digitsOnly(first, end);
  }

  private array(at: number): number {
    const bytes = this.bytes;
    let index = at + 1;
    if (bytes[index] === CLOSE_ARRAY) return index + 1;
    for (;;) {
      index = this.value(index);
      if (bytes[index] === CLOSE_ARRAY) return index + 1;
      if (bytes[index] !== COMMA) notPlain();
      index += 1;
    }
  }

  /** Whether the bytes from `start` to `end` are all digits (a key that may be an array index: not vouched for). */
  private digitsOnly(start: number, end: number): boolean {
    if (start === end) return false;
    for (let index = start; index < end; index++) if (this.bytes[index]! < DIGIT_0 || this.bytes[index]! > DIGIT_9) return false;
    return true;
  }

  /** An object whose keys parse back in the order they are written: none is an array index. */
  private object(at: number): number {
    const bytes = this.bytes;
    let index = at + 1;
    if (bytes[index] === CLOSE_OBJECT) return index + 1;
    for (;;) {
      const keyEnd = this.string(index);
      if (this.digitsOnly(index + 1, keyEnd - 1)) notPlain();
      if (bytes[keyEnd] !== COLON) notPlain();
      index = this.value(keyEnd + 1);
      if (bytes[index] === CLOSE_OBJECT) return index + 1;
      if (bytes[index] !== COMMA) notPlain();
      index += 1;
    }
  }
}

/**
 * The byte range of `scope.value.presented` in a stored definition's text when its bytes are what
 * JSON.stringify writes for the parsed surface; undefined when the scan cannot tell or finds no
 * surface (the caller then parses the text). Only the path to the surface and the surface itself
 * are read closely; the members before them are skipped.
 */
export function scanPresentedRange(utf8: Uint8Array): ByteRange | undefined {
  try {
    return new Scanner(utf8).find(0, 0);
  } catch (error) {
    if (error instanceof NotPlain) return undefined;
    throw error;
  }
}

/**
 * The byte range of the presented surface's serialization (JSON.stringify's) in a stored
 * definition's text: scanned, or else found by parsing the text and looking for the serialization
 * in it; null when the text holds no such run of bytes.
 */
export function presentedRange(utf8: Buffer): ByteRange | null {
  const scanned = scanPresentedRange(utf8);
  if (scanned) return scanned;
  const text = utf8.toString("utf8");
  const presented = JSON.stringify(presentedSurface(JSON.parse(text) as MiddlewareDefinition));
  const start = text.indexOf(presented);
  if (start < 0) return null;
  const byteStart = Buffer.byteLength(text.slice(0, start), "utf8");
  return { start: byteStart, end: byteStart + Buffer.byteLength(presented, "utf8") };
}
