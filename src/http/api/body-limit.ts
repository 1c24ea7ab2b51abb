// Request bodies are capped at REQUEST_BODY_LIMIT_BYTES (8 MiB) on every surface: a declared
// content-length over the cap is refused before a byte is read, and a body without one (chunked) is
// counted while it streams, so an oversized body is never held in memory, parsed or executed.
import { DomainError } from "../../domain/errors.js";
import { REQUEST_BODY_LIMIT_BYTES } from "../../domain/plans.js";

const payloadTooLarge = () => new DomainError("PAYLOAD_TOO_LARGE", `request body exceeds ${REQUEST_BODY_LIMIT_BYTES / (1024 * 1024)} MiB`);

export async function readBodyText(request: Request, limit = REQUEST_BODY_LIMIT_BYTES): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw payloadTooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw payloadTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
