// ETags are the SHA-256 of the body (docs/api.md). A REST body is assembled from pieces, and most of
// a list's bytes are cached definitions that never change (src/graphql/stored-definitions.ts):
// hashing the list of 50's 1.4 MB at every request was a tenth of its CPU. A body built from pieces
// is named instead by its assembly (its text pieces' bytes and its byte pieces' own digests, each
// piece hashed once); the body's SHA-256 is computed once per assembly and remembered.
import { createHash, type Hash } from "node:crypto";
import { LRUCache } from "lru-cache";

/** Byte pieces are cached and never written to, so a digest per piece object holds. */
const pieceDigests = new WeakMap<Uint8Array, Buffer>();
/** Assembly key → the body's SHA-256 (base64url); ~130 bytes an entry. */
const bodyDigests = new LRUCache<string, string>({ max: 10_000 });

const TEXT = 0;
const BYTES = 1;

function pieceDigest(piece: Uint8Array): Buffer {
  let digest = pieceDigests.get(piece);
  if (!digest) {
    digest = createHash("sha256").update(piece).digest();
    pieceDigests.set(piece, digest);
  }
  return digest;
}

function frame(kind: number, length: number): Buffer {
  const header = Buffer.allocUnsafe(5);
  header.writeUInt8(kind, 0);
  header.writeUInt32BE(length, 1);
  return header;
}

/** Builds an assembly key piece by piece: text pieces by their bytes, byte pieces by their digest. */
export class AssemblyKey {
  readonly #hash: Hash = createHash("sha256");

  text(bytes: Uint8Array): void {
    this.#hash.update(frame(TEXT, bytes.byteLength)).update(bytes);
  }

  bytes(piece: Uint8Array): void {
    this.#hash.update(frame(BYTES, piece.byteLength)).update(pieceDigest(piece));
  }

  digest(): string {
    return this.#hash.digest("base64url");
  }
}

/** The SHA-256 (base64url) of `body`; with the key of its assembly, computed once per assembly. */
export function bodySha256(body: Uint8Array, assemblyKey?: string): string {
  if (assemblyKey === undefined) return createHash("sha256").update(body).digest("base64url");
  let digest = bodyDigests.get(assemblyKey);
  if (digest === undefined) {
    digest = createHash("sha256").update(body).digest("base64url");
    bodyDigests.set(assemblyKey, digest);
  }
  return digest;
}
