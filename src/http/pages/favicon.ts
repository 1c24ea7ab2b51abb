// The site's icon at /favicon.ico, which every page links and browsers ask for on their own: a
// 32×32 PNG inside an ICO (163 bytes), a white gate (a beam over two posts) on a teal rounded square.

export const FAVICON_PATH = "/favicon.ico";

const FAVICON = Buffer.from(
  "AAABAAEAICAAAAEAIACNAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAgAAAAIAgGAAAAc3p69AAAAFRJREFUeNpjYEAD3EWt/2mJGXABWluM1yH0thzDEQPqgIGyHO6IUQdgE6QVGHXA0HEAPsdQW/2oA0YdMOqAUQeMOmDUAaMOGG2UjvaMBkfndCC75wDrHWBYBnZW3AAAAABJRU5ErkJggg==",
  "base64",
);

/** Its URL does not change with it, so caches keep it a day, not a year. */
export function faviconResponse(): Response {
  return new Response(new Uint8Array(FAVICON), { headers: { "content-type": "image/x-icon", "cache-control": "public, max-age=86400" } });
}
