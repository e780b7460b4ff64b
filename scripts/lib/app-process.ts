/**
 * A second Baton app process for lib/server/multi-process.int.test.ts: the
 * real route handlers, in their own Node process with their own pools and
 * memory, on the same database (DATABASE_URL). It runs one command from
 * argv and prints one JSON line. Route handlers rather than a second
 * `next start`: the same code paths, without a production build in the
 * integration suite.
 */
import { readFileSync } from "node:fs";
import { POST as flush } from "@/app/api/otel/v1/flush/route";
import { POST as signin } from "@/app/api/auth/signin/route";
import { POST as ingest } from "@/app/api/traces/route";
import { closeDatabase } from "@/lib/server/db/client";

const none = { params: Promise.resolve({}) };
const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${url}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

type Command =
  | { op: "signin"; email: string; password: string; address: string; times: number }
  | { op: "upsert"; traces: unknown[] }
  | { op: "flush" }
  | { op: "ingest"; prefix: string; count: number }
  | { op: "writes"; prefix: string; count: number };

async function main(command: Command): Promise<unknown> {
  switch (command.op) {
    case "signin": {
      const statuses: number[] = [];
      for (let i = 0; i < command.times; i++) {
        statuses.push((await signin(post("/api/auth/signin", JSON.stringify({ email: command.email, password: command.password }), { "x-forwarded-for": command.address }), none)).status);
      }
      return statuses;
    }
    case "upsert":
      // all at once: each upsert of one trace_id must succeed (SPEC.md section 7)
      return Promise.all(command.traces.map(async (t) => (await ingest(post("/api/traces?upsert=1", JSON.stringify(t)), none)).status));
    case "flush":
      return (await (await flush(post("/api/otel/v1/flush", "{}"), none)).json()) as unknown;
    case "ingest": {
      const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
      const body = Array.from({ length: command.count }, (_, i) => JSON.stringify({ ...example, trace_id: `${command.prefix}${i}` })).join("\n");
      process.stdout.write("started\n");
      return (await ingest(post("/api/traces", body, { "content-type": "application/x-ndjson" }), none)).status;
    }
    case "writes": {
      // one small trace per write, one after another: "ack <trace_id>" once each is answered 201
      const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
      let acknowledged = 0;
      for (let i = 0; i < command.count; i++) {
        const id = `${command.prefix}${i}`;
        const status = (await ingest(post("/api/traces", JSON.stringify({ ...example, trace_id: id })), none)).status;
        if (status === 201) {
          acknowledged++;
          process.stdout.write(`ack ${id}\n`);
        }
      }
      return acknowledged;
    }
  }
}

const command = JSON.parse(process.argv[2] ?? "{}") as Command;
main(command)
  .then(async (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    await closeDatabase();
    process.exit(0);
  })
  .catch((error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  });
