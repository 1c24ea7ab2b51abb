// A server process's CPU time and resident memory, from Linux's /proc.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

let ticksPerSecond: number | undefined;

function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU time the process has used so far, in milliseconds (10 ms resolution on most kernels). */
export function cpuMillis(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / clockTicksPerSecond();
}

/** Resident set size in bytes. */
export function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** A client backend's title: `postgres: 15/main: user database 127.0.0.1(5432) idle`, or `[local]`. */
const CLIENT_BACKEND = /\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\]|\[?[0-9a-f:]+\]?\(\d+\)/;

/**
 * CPU time of a local PostgreSQL server on behalf of one database: the backends connected to it and
 * the server's own processes (postmaster, WAL writer, checkpointer, …), which serve every database.
 * Backends of other databases (another benchmark on the same server) are left out. A backend that
 * exits takes its CPU time with it, so pooled connections that stay open are what this counts.
 */
export function postgresCpuMillis(databaseName: string): number {
  let total = 0;
  for (const millis of postgresCpuByProcess(databaseName).values()) total += millis;
  return total;
}

/** postgresCpuMillis per process id. */
export function postgresCpuByProcess(databaseName: string): Map<number, number> {
  const byProcess = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
      const title = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      if (CLIENT_BACKEND.test(title) && !title.includes(` ${databaseName} `)) continue;
      byProcess.set(Number(entry), cpuMillis(Number(entry)));
    } catch {
      // The process exited meanwhile.
    }
  }
  return byProcess;
}

/**
 * The CPU the processes of `after` used since `before` (both postgresCpuByProcess): a process that
 * exited in between (a pool closing an idle connection) is left out rather than subtracted, one
 * that started counts whole.
 */
export function postgresCpuSince(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, millis] of after) total += millis - (before.get(pid) ?? 0);
  return total;
}
