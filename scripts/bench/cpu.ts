import { readdirSync, readFileSync } from "node:fs";

/**
 * Where a benchmark's CPU went, from Linux's /proc: the app (a process and
 * all its descendants: `npm start`'s primary and its node:cluster workers),
 * PostgreSQL (every process named `postgres`: the benchmark's server is the
 * only one while it runs), the benchmark's own process (its load clients),
 * and the whole machine. Two snapshots subtract into a `CpuSplit`.
 * Elsewhere than Linux every figure is 0.
 */
export interface CpuSnapshot {
  app: number;
  postgres: number;
  bench: number;
  machineBusy: number;
  machineAll: number;
  at: number;
}

export type CpuSplit = Omit<CpuSnapshot, "at"> & { seconds: number };

const TICK_MS = 10; // USER_HZ is 100 on every Linux architecture Node supports

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  ms: number;
}

function processes(): Proc[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return [];
  }
  const out: Proc[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid ... utime(14) stime(15): comm may hold spaces and parentheses
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const rest = stat.slice(close + 2).split(" ");
    out.push({ pid: Number(name), ppid: Number(rest[1]), comm, ms: (Number(rest[11]) + Number(rest[12])) * TICK_MS });
  }
  return out;
}

export function cpuSnapshot(appPid: number | undefined): CpuSnapshot {
  const all = processes();
  const children = new Map<number, Proc[]>();
  for (const p of all) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(p);
    else children.set(p.ppid, [p]);
  }
  const app = new Set<number>();
  const stack = appPid === undefined ? [] : [appPid];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (app.has(pid)) continue;
    app.add(pid);
    for (const child of children.get(pid) ?? []) stack.push(child.pid);
  }
  let appMs = 0;
  let pgMs = 0;
  for (const p of all) {
    if (app.has(p.pid)) appMs += p.ms;
    else if (p.comm === "postgres") pgMs += p.ms;
  }
  const usage = process.cpuUsage();
  let machineBusy = 0;
  let machineAll = 0;
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    machineAll = fields.slice(0, 8).reduce((a, b) => a + b, 0) * TICK_MS;
    machineBusy = machineAll - (fields[3]! + fields[4]!) * TICK_MS; // less idle and iowait
  } catch {
    // not Linux
  }
  return { app: appMs, postgres: pgMs, bench: (usage.user + usage.system) / 1000, machineBusy, machineAll, at: performance.now() };
}

/** CPU milliseconds per request of the app, PostgreSQL and the clients, and all three together. */
export function cpuPer(split: CpuSplit, requests: number): { app: number; postgres: number; bench: number; all: number } {
  const n = Math.max(requests, 1);
  return { app: split.app / n, postgres: split.postgres / n, bench: split.bench / n, all: (split.app + split.postgres + split.bench) / n };
}

export function cpuSince(before: CpuSnapshot, after: CpuSnapshot): CpuSplit {
  return {
    app: after.app - before.app,
    postgres: after.postgres - before.postgres,
    bench: after.bench - before.bench,
    machineBusy: after.machineBusy - before.machineBusy,
    machineAll: after.machineAll - before.machineAll,
    seconds: (after.at - before.at) / 1000,
  };
}
