// Delivers webhook requests: one POST, no redirects followed, bounded in time and in the bytes read
// back, and never to a private, loopback or link-local address unless the operator allowed that host.
// The address check runs on the socket's resolved address (request-filtering-agent), so a name that
// resolves somewhere else at delivery time than when the subscription was created is still refused.
import * as http from "node:http";
import * as https from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
import { RequestFilteringHttpsAgent } from "request-filtering-agent";

export interface SenderSettings {
  /** Socket connect, DNS lookup included. */
  connectTimeoutMs: number;
  /** The whole request, reading the response included. */
  totalTimeoutMs: number;
  /** The response body is read up to this many bytes, then the socket is destroyed; the status code still decides the outcome. */
  maxResponseBytes: number;
  /** Hostnames (exact, case-insensitive) and IP literals the operator allows: http, and private or loopback addresses. */
  allowedHosts: readonly string[];
  /** DNS lookup for connections; dns.lookup when absent. */
  lookup?: LookupFunction;
}

export interface DeliveryAttempt {
  /** A 2xx status. */
  ok: boolean;
  /** null when no response came. */
  statusCode: number | null;
  latencyMs: number;
  /** Why the attempt failed, null when ok. */
  error: string | null;
  /** The start of the response body, for the delivery log. */
  responseBody: string;
}

export interface WebhookSender {
  send(url: string, headers: Record<string, string>, body: string): Promise<DeliveryAttempt>;
  /** Destroys the pooled sockets; requests in flight fail. */
  close(): void;
}

const MAX_URL_LENGTH = 2048;
const LOGGED_BODY_CHARS = 1024;
// A UTF-8 character is at most 4 bytes, so these bytes always hold the logged characters.
const KEPT_BODY_BYTES = LOGGED_BODY_CHARS * 4;
const ALLOWED_HOSTS_VARIABLE = "TOOLGATE_WEBHOOK_ALLOWED_HOSTS";

// First match wins: loopback and unspecified come before the IPv6 ranges that contain them. IPv4
// rules also match an IPv6 address that maps the IPv4 one (::ffff:127.0.0.1 is loopback).
const SPECIAL_RANGES: ReadonlyArray<readonly [label: string, network: string, prefix: number]> = [
  ["unspecified", "0.0.0.0", 8],
  ["unspecified", "::", 128],
  ["loopback", "127.0.0.0", 8],
  ["loopback", "::1", 128],
  ["cloud metadata", "169.254.169.254", 32],
  ["cloud metadata", "fd00:ec2::254", 128],
  ["link-local", "169.254.0.0", 16],
  ["link-local", "fe80::", 10],
  ["private", "10.0.0.0", 8],
  ["private", "172.16.0.0", 12],
  ["private", "192.168.0.0", 16],
  ["private", "100.64.0.0", 10],
  ["private", "fc00::", 7],
  ["private", "fec0::", 10],
  ["multicast", "224.0.0.0", 4],
  ["multicast", "ff00::", 8],
  ["reserved", "240.0.0.0", 4],
  ["reserved", "192.0.0.0", 24],
  ["reserved", "192.0.2.0", 24],
  ["reserved", "192.88.99.0", 24],
  ["reserved", "198.18.0.0", 15],
  ["reserved", "198.51.100.0", 24],
  ["reserved", "203.0.113.0", 24],
  ["reserved", "2001:db8::", 32],
  ["reserved", "100::", 64],
  ["IPv4-mapped", "::ffff:0:0", 96],
  ["IPv4-compatible", "::", 96],
  ["IPv4 translation", "64:ff9b::", 96],
  ["IPv4 translation", "64:ff9b:1::", 48],
  ["IPv4 translation", "2002::", 16],
  ["IPv4 translation", "2001::", 32],
];

const specialRanges = SPECIAL_RANGES.map(([label, network, prefix]) => {
  const family = isIP(network) === 4 ? "ipv4" : "ipv6";
  const blockList = new BlockList();
  blockList.addSubnet(network, prefix, family);
  return { label, family, blockList };
});

/** The special-purpose range an IP address is in, or null for a public address. */
function specialRangeOf(address: string): string | null {
  const family = isIP(address) === 4 ? "ipv4" : "ipv6";
  // An IPv6 rule like ::ffff:0:0/96 would match every IPv4 address, so IPv4 is checked against IPv4 rules only.
  const range = specialRanges.find((entry) => (family === "ipv6" || entry.family === "ipv4") && entry.blockList.check(address, family));
  return range?.label ?? null;
}

/** A host as compared with the allowed hosts: lowercase, IPv6 without brackets, no trailing dot. */
function hostKey(host: string): string {
  const bare = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
  if (isIP(bare) === 0) return bare;
  // Spell IP literals the way the URL parser does, so "0:0:0:0:0:0:0:1" matches "[::1]".
  try {
    return new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}/`).hostname.replace(/^\[(.*)\]$/, "$1");
  } catch {
    return bare;
  }
}

function allowedHostSet(allowedHosts: readonly string[]): Set<string> {
  return new Set(allowedHosts.map(hostKey));
}

export function webhookUrlProblems(url: string, allowedHosts: readonly string[]): string[] {
  const problems: string[] = [];
  if (url.length > MAX_URL_LENGTH) problems.push(`must be at most ${MAX_URL_LENGTH} characters`);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return [...problems, "must be an absolute URL"];
  }
  const host = hostKey(target.hostname);
  const allowed = host !== "" && allowedHostSet(allowedHosts).has(host);
  if (target.protocol !== "https:" && !(target.protocol === "http:" && allowed))
    problems.push(`must use https (http only for hosts in ${ALLOWED_HOSTS_VARIABLE})`);
  if (target.username !== "" || target.password !== "") problems.push("must not contain credentials");
  if (!allowed && host !== "") {
    const range = isIP(host) === 0 ? null : specialRangeOf(host);
    if (range !== null) problems.push(`host ${host} is not a public address (${range})`);
    if (host === "localhost" || host.endsWith(".localhost")) problems.push(`host ${host} is not a public name (loopback)`);
  }
  return problems;
}

function statusProblem(statusCode: number, location: string | undefined): string | null {
  if (statusCode >= 200 && statusCode < 300) return null;
  if (statusCode >= 300 && statusCode < 400) return `redirect not followed (${statusCode}${location ? ` to ${location}` : ""})`;
  return `answered ${statusCode}`;
}

// request-filtering-agent's refusals are plain Errors with this message and no code.
function describeRequestError(error: Error): string {
  const refusedByAddressFilter = !("code" in error) && /^DNS lookup .* is not allowed/.test(error.message);
  return refusedByAddressFilter ? `refused: ${error.message}` : error.message || String(error);
}

export function createWebhookSender(settings: SenderSettings): WebhookSender {
  const allowedHosts = allowedHostSet(settings.allowedHosts);
  const agentOptions = { keepAlive: true, maxSockets: 50 };
  const filteringHttpsAgent = new RequestFilteringHttpsAgent(agentOptions);
  const plainHttpAgent = new http.Agent(agentOptions);
  const plainHttpsAgent = new https.Agent(agentOptions);
  let closed = false;

  function deliver(target: URL, headers: Record<string, string>, body: string, startedAt: number): Promise<DeliveryAttempt> {
    const isHttps = target.protocol === "https:";
    const allowed = allowedHosts.has(hostKey(target.hostname));
    const agent = allowed ? (isHttps ? plainHttpsAgent : plainHttpAgent) : filteringHttpsAgent;
    const request = isHttps ? https.request : http.request;

    return new Promise((resolve) => {
      let statusCode: number | null = null;
      let location: string | undefined;
      const kept: Buffer[] = [];
      let keptBytes = 0;
      let receivedBytes = 0;
      let settled = false;
      let connectTimer: NodeJS.Timeout | undefined;

      // Once a status line is in, it decides the outcome; a body cut short only shortens the log.
      const finish = (failure: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(totalTimer);
        clearTimeout(connectTimer);
        const error = statusCode === null ? (failure ?? "no response") : statusProblem(statusCode, location);
        resolve({
          ok: error === null,
          statusCode,
          latencyMs: Math.round(performance.now() - startedAt),
          error,
          responseBody: Buffer.concat(kept).toString("utf8").slice(0, LOGGED_BODY_CHARS),
        });
      };

      const req = request(target, {
        method: "POST",
        agent,
        lookup: settings.lookup,
        headers: { "content-type": "application/json", "user-agent": "toolgate-webhooks", ...headers, "content-length": Buffer.byteLength(body) },
      });

      const totalTimer = setTimeout(() => {
        finish(`timed out after ${settings.totalTimeoutMs} ms`);
        req.destroy();
      }, settings.totalTimeoutMs);

      req.on("socket", (socket) => {
        if (!socket.connecting) return;
        connectTimer = setTimeout(() => {
          finish(`connect timeout after ${settings.connectTimeoutMs} ms`);
          req.destroy();
        }, settings.connectTimeoutMs);
        socket.once("connect", () => clearTimeout(connectTimer));
      });

      req.on("error", (error) => finish(describeRequestError(error)));

      req.on("response", (res) => {
        statusCode = res.statusCode ?? null;
        location = res.headers.location;
        res.on("data", (chunk: Buffer) => {
          const readable = Math.min(chunk.length, settings.maxResponseBytes - receivedBytes);
          receivedBytes += readable;
          const keep = Math.min(readable, KEPT_BODY_BYTES - keptBytes);
          if (keep > 0) {
            kept.push(chunk.subarray(0, keep));
            keptBytes += keep;
          }
          if (receivedBytes >= settings.maxResponseBytes) {
            finish(null);
            req.destroy();
          }
        });
        res.on("end", () => finish(null));
        res.on("error", () => finish(null));
        res.on("close", () => finish(null));
      });

      req.end(body);
    });
  }

  return {
    async send(url, headers, body) {
      const startedAt = performance.now();
      const failed = (error: string): DeliveryAttempt => ({
        ok: false,
        statusCode: null,
        latencyMs: Math.round(performance.now() - startedAt),
        error,
        responseBody: "",
      });
      if (closed) return failed("sender closed");
      const problems = webhookUrlProblems(url, settings.allowedHosts);
      if (problems.length > 0) return failed(`refused: ${problems.join("; ")}`);
      try {
        return await deliver(new URL(url), headers, body, startedAt);
      } catch (error) {
        // http.request throws synchronously on headers it cannot send.
        return failed(error instanceof Error ? error.message : String(error));
      }
    },
    close() {
      closed = true;
      filteringHttpsAgent.destroy();
      plainHttpAgent.destroy();
      plainHttpsAgent.destroy();
    },
  };
}
