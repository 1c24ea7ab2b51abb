// A REST body's UTF-8 bytes: what JSON.stringify writes, except that each stored JSON text
// (JsonText) is copied in as its bytes rather than parsed and serialized again. Its ETag's hash is
// taken over the same pieces, a stored text with an identity standing for its bytes: a list of 50
// grant views is 1.4 MB of stored text, whose SHA-256 would cost ~9 % of the list.
import { createHash } from "node:crypto";
import { JsonText } from "../../graphql/json-text.js";

type Piece = string | JsonText;

/** JSON.stringify's text of `value`, in pieces: the text between stored texts, and each stored text. */
function jsonPieces(value: unknown): Piece[] {
  const pieces: Piece[] = [];
  let text = "";
  /** Writes `member` as JSON.stringify would; false (nothing written) for what it leaves out: undefined, functions, symbols. */
  const write = (member: unknown, key: string): boolean => {
    if (member instanceof JsonText) {
      pieces.push(text, member);
      text = "";
      return true;
    }
    if (member !== null && typeof member === "object" && typeof (member as { toJSON?: unknown }).toJSON === "function") {
      member = (member as { toJSON(key: string): unknown }).toJSON(key);
    }
    if (member === null || typeof member !== "object") {
      const leaf = JSON.stringify(member);
      if (leaf === undefined) return false;
      text += leaf;
      return true;
    }
    if (Array.isArray(member)) {
      text += "[";
      member.forEach((item, index) => {
        if (index > 0) text += ",";
        if (!write(item, String(index))) text += "null";
      });
      text += "]";
      return true;
    }
    text += "{";
    let empty = true;
    for (const [name, item] of Object.entries(member)) {
      const before = text;
      text += `${empty ? "" : ","}${JSON.stringify(name)}:`;
      if (write(item, name)) empty = false;
      else text = before;
    }
    text += "}";
    return true;
  };
  if (!write(value, "")) throw new TypeError("a REST body must be a JSON value");
  pieces.push(text);
  return pieces;
}

export interface EncodedBody {
  bytes: Buffer;
  /**
   * The SHA-256 (base64url) of the body's pieces: of its bytes when it holds no stored text with an
   * identity, else of the text between those and, NUL-delimited, their identities. Equal bodies get
   * equal tags and different bodies different ones (JSON text holds no raw NUL), which is what a
   * strong ETag needs; it is not the hash of the bytes.
   */
  tag: string;
}

/** The body's bytes and ETag hash. */
export function encodeJsonBody(value: unknown): EncodedBody {
  const pieces = jsonPieces(value);
  return { bytes: bodyBytes(pieces), tag: piecesTag(pieces) };
}

function piecesTag(pieces: readonly Piece[]): string {
  const hash = createHash("sha256");
  for (const piece of pieces) {
    if (typeof piece === "string") hash.update(piece, "utf8");
    else if (piece.identity === undefined) hash.update(piece.utf8);
    else hash.update(`\0${piece.identity}\0`, "utf8");
  }
  return hash.digest("base64url");
}

/**
 * Each piece encoded (or copied) in place: joining 1.4 MB of pieces into one string first makes V8
 * flatten it before encoding it.
 */
function bodyBytes(pieces: readonly Piece[]): Buffer {
  if (pieces.length === 1) return Buffer.from(pieces[0] as string, "utf8");
  let length = 0;
  for (const piece of pieces) length += typeof piece === "string" ? Buffer.byteLength(piece, "utf8") : piece.utf8.byteLength;
  const bytes = Buffer.allocUnsafe(length);
  let offset = 0;
  for (const piece of pieces) {
    if (typeof piece === "string") offset += bytes.write(piece, offset, "utf8");
    else {
      bytes.set(piece.utf8, offset);
      offset += piece.utf8.byteLength;
    }
  }
  return bytes;
}
