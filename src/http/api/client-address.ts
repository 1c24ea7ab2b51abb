// The address a request came from, for per-client limits. X-Forwarded-For is only believed when the
// operator says a proxy sits in front (TOOLGATE_TRUST_PROXY): otherwise any client could name itself.
// The proxy appends the address it saw, so the last entry is the one it vouches for.
export function clientAddress(request: Request, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return socketAddress ?? "unknown";
}
