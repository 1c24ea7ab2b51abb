// Files compressed once, ahead of any request: `<file>`, `<file>.br` and `<file>.gz` side by side.
// Each request is sent the variant its Accept-Encoding prefers (the same negotiation as compressed
// answers, compression.ts), identity when it accepts neither; the representation step sends coded
// bodies as they are (representation.ts).
import { readFile } from "node:fs/promises";
import { byteResponse } from "../byte-body.js";
import { negotiateContentCoding } from "../pipeline/compression.js";

export const PRECOMPRESSED_SUFFIXES = { br: ".br", gzip: ".gz" } as const;

export interface PrecompressedFile {
  /** The identity variant's path; the coded ones are beside it. */
  path: string;
  contentType: string;
  cacheControl: string;
}

/**
 * Answers requests for files with their variants, each read on first use and kept: every request
 * sends the same bytes, uncopied, so many at once cost no memory per request (reading per request
 * held a copy of the 5 MB GraphiQL bundle per download in flight).
 */
export function precompressedFiles(): (request: Request, file: PrecompressedFile) => Promise<Response> {
  const variants = new Map<string, Promise<Buffer>>();
  const read = (variant: string) => {
    let bytes = variants.get(variant);
    if (!bytes) {
      bytes = readFile(variant);
      variants.set(variant, bytes);
      bytes.catch(() => variants.delete(variant));
    }
    return bytes;
  };
  return async (request, file) => {
    const coding = negotiateContentCoding(request.headers.get("accept-encoding"));
    const body = await read(coding ? file.path + PRECOMPRESSED_SUFFIXES[coding] : file.path);
    const headers = new Headers({ "content-type": file.contentType, "cache-control": file.cacheControl, vary: "Accept-Encoding" });
    if (coding) headers.set("content-encoding", coding);
    headers.set("content-length", String(body.byteLength));
    return request.method === "HEAD" ? new Response(null, { headers }) : byteResponse(body, { headers });
  };
}
