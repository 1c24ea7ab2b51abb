// A REST body's UTF-8 bytes: what JSON.stringify writes, except that each stored JSON text
// (JsonText) stands in it as its own bytes rather than parsed and serialized again. Its ETag's hash is
// taken over the same pieces, a stored text with an identity standing for its bytes: a list of 50
// grant views is 1.4 MB of stored text, whose SHA-256 would cost ~9 % of the list.
import { createHash, randomBytes } from "node:crypto";
import { stringifyWithStandIns, type JsonText } from "../../graphql/json-text.js";
import { KnownBody } from "../byte-body.js";

type Piece = string | JsonText;

/**
 * What a stored text stands as while the body is stringified: NUL, this process's random mark, its
 * number, NUL. JSON.stringify writes the NULs as `\u0000`, so no value's own text can produce the
 * written stand-in unless it holds the mark, which never leaves the process.
 */
const STAND_IN_MARK = `\u0000${randomBytes(12).toString("hex")}:`;
const standIn = (index: number) => `${STAND_IN_MARK}${index}\u0000`;
/** How JSON.stringify writes `standIn(index)`: the mark is hex and the number digits, so only the NULs are escaped. */
const WRITTEN_MARK = JSON.stringify(STAND_IN_MARK).slice(0, -1);
const writtenStandIn = (index: number) => `${WRITTEN_MARK}${index}\\u0000"`;

/**
 * JSON.stringify's text of `value`, in pieces: the text between stored texts, and each stored text.
 * The text is written by JSON.stringify itself, each stored text as a stand-in that is then cut out.
 */
function jsonPieces(value: unknown): Piece[] {
  const stored: JsonText[] = [];
  const text = stringifyWithStandIns(value, (text) => standIn(stored.push(text) - 1));
  if (text === undefined) throw new TypeError("a REST body must be a JSON value");
  const pieces: Piece[] = [];
  let from = 0;
  stored.forEach((storedText, index) => {
    const written = writtenStandIn(index);
    const at = text.indexOf(written, from);
    if (at < 0) throw new Error(`stored text ${index} is missing from the body it was written into`);
    pieces.push(text.slice(from, at), storedText);
    from = at + written.length;
  });
  pieces.push(from === 0 ? text : text.slice(from));
  return pieces;
}

/**
 * The body, in chunks: the JSON text between stored texts and each stored text's own bytes, which are
 * sent as they are rather than copied (byte-body.ts). Its tag is the SHA-256 (base64url) of the
 * body's pieces: of its bytes when it holds no stored text with an identity, else of the text between
 * those and, NUL-delimited, their identities. Equal bodies get equal tags and different bodies
 * different ones (JSON text holds no raw NUL), which is what a strong ETag needs; it is not the hash
 * of the bytes.
 */
export function encodeJsonBody(value: unknown): KnownBody {
  const pieces = jsonPieces(value);
  const { chunks, storedTexts } = bodyChunks(pieces);
  return new KnownBody(chunks, piecesTag(pieces), storedTexts);
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
 * The text pieces encoded into one buffer, and the stored texts' bytes between them, in order, with
 * the identity of each stored text at its chunk's index.
 */
function bodyChunks(pieces: readonly Piece[]): { chunks: Uint8Array[]; storedTexts: (string | undefined)[] } {
  let textLength = 0;
  for (const piece of pieces) if (typeof piece === "string") textLength += Buffer.byteLength(piece, "utf8");
  const text = Buffer.allocUnsafe(textLength);
  const chunks: Uint8Array[] = [];
  const storedTexts: (string | undefined)[] = [];
  let offset = 0;
  for (const piece of pieces) {
    if (typeof piece !== "string") {
      if (piece.utf8.byteLength > 0) {
        storedTexts[chunks.length] = piece.identity;
        chunks.push(piece.utf8);
      }
    } else if (piece.length > 0) {
      const written = text.write(piece, offset, "utf8");
      chunks.push(text.subarray(offset, offset + written));
      offset += written;
    }
  }
  return { chunks, storedTexts };
}
