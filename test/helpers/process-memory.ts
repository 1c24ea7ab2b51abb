// What a served process holds: its resident set size, read from /proc (Linux).
import { readFileSync } from "node:fs";

/** The resident set size of process `pid`, in bytes. */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}

export const mib = (bytes: number) => Math.round(bytes / 2 ** 20);
