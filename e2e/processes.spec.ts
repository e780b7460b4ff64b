import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";

/**
 * `npm start` runs BATON_PROCESSES app processes on one port (the e2e
 * server runs 2): new connections are answered by each in turn, and when
 * one of them is killed with SIGKILL while traces are being written, the
 * others go on answering, a new process takes its place, and every write
 * that was answered 201 is stored.
 */
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as object;
const prefix = `e2e-processes-${Date.now()}-`;
const close = { connection: "close" };

async function pids(request: APIRequestContext, tries = 12): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < tries; i++) {
    // a connection handed to the process as it was killed never answers: give up on it after 5 s
    const answer = await request.get("/api/status", { headers: close, timeout: 5_000 }).catch(() => null);
    if (answer?.ok()) seen.add(((await answer.json()) as { process: { pid: number } }).process.pid);
  }
  return seen;
}

const WRITES = 200;

test.afterAll(async ({ request }) => {
  // whatever was stored, acknowledged or not
  for (let i = 0; i < WRITES; i++) await request.delete(`/api/traces/${prefix}${i}`);
});

test("two app processes share the port, and one killed mid-write loses no acknowledged write", async ({ request }) => {
  test.setTimeout(240_000);
  const before = await pids(request);
  expect(before.size).toBe(2);
  const victim = [...before][0]!;

  const acknowledged: string[] = [];
  const failed: string[] = [];
  let next = 0;
  let killed = false;
  // 4 writers, each a new connection per trace, so both processes take writes
  const writer = async () => {
    while (next < WRITES) {
      const id = `${prefix}${next++}`;
      if (next === 40 && !killed) {
        killed = true;
        process.kill(victim, "SIGKILL");
      }
      try {
        const answer = await request.post("/api/traces", { headers: close, data: { ...example, trace_id: id }, timeout: 15_000 });
        (answer.status() === 201 ? acknowledged : failed).push(id);
      } catch {
        failed.push(id); // the connection died with the process: not acknowledged
      }
    }
  };
  await Promise.all([writer(), writer(), writer(), writer()]);
  expect(killed).toBe(true);
  // most writes went through, before and after the kill
  expect(acknowledged.length).toBeGreaterThan(150);

  // a new process has taken the victim's place
  await expect.poll(async () => {
    const now = await pids(request);
    return now.size === 2 && !now.has(victim);
  }, { timeout: 60_000 }).toBe(true);

  const missing: string[] = [];
  for (const id of acknowledged) if ((await request.get(`/api/traces/${id}`)).status() !== 200) missing.push(id);
  expect(missing).toEqual([]);
});
