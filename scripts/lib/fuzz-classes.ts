/**
 * The fuzz classes of lib/server/fuzz.int.test.ts (`npm test`, ~2,000
 * cases) and `npm run fuzz` (20,000+): fast-check arbitraries of hostile
 * requests, each sent to the real route handler over the real database.
 * A case passes when the answer is not a 5xx, an error has the shape of
 * SPEC.md section 7, and a refused write stored nothing. With
 * BATON_FUZZ_URL set (`npm run fuzz` sets it for its second pass), every
 * request goes over HTTP to a Baton serving the same database instead:
 * through Next, its proxy and its body handling, as a client's would.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { POST as annotate } from "@/app/api/traces/[id]/annotations/route";
import { GET as credit } from "@/app/api/traces/[id]/credit/route";
import { GET as graph } from "@/app/api/traces/[id]/graph/route";
import { GET as getTrace } from "@/app/api/traces/[id]/route";
import { GET as dashboard } from "@/app/api/dashboard/route";
import { GET as decisions } from "@/app/api/decisions/route";
import { GET as trend } from "@/app/api/diagnostics/trend/route";
import { GET as groupView } from "@/app/api/groups/[group_id]/route";
import { GET as heatmap } from "@/app/api/heatmap/route";
import { GET as metrics } from "@/app/api/metrics/route";
import { POST as flush } from "@/app/api/otel/v1/flush/route";
import { POST as otlp } from "@/app/api/otel/v1/traces/route";
import { POST as presets } from "@/app/api/presets/route";
import { GET as rubrics } from "@/app/api/projects/[project]/rubrics/route";
import { GET as queue } from "@/app/api/queues/[id]/route";
import { POST as importFile } from "@/app/api/import/route";
import { GET as list, POST as ingest } from "@/app/api/traces/route";
import { orchestratorRun, toOtlpJson } from "@/lib/adapters/otlp-fixtures";
import { encodeTraceRequest } from "@/lib/adapters/otlp-protobuf";
import { pool } from "@/lib/server/db/client";

export const FUZZ_TRACE = "fuzz-base-trace";
/** A trace of another project whose trace_id is an OTLP id: spans with that id must never replace it. */
export const FUZZ_FOREIGN = { traceId: "eeee0000000000000000000000000023", project: "fuzz-other" };
/** A trace carrying a trace-level label of the local user: imports must never overwrite it. */
export const FUZZ_LABELLED = "fuzz-labelled-trace";
const EXTREME_PROJECT = "fuzz-extreme";
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as Record<string, unknown>;
const otlpBase = toOtlpJson(orchestratorRun().map((s) => ({ ...s, traceId: "dddd0000000000000000000000000001" })));

export interface FuzzRequest {
  /** what a refused request must not have changed */
  writes: "traces" | "otel" | "annotations" | "presets" | null;
  send: () => Promise<Response>;
  /** what no request of the class may change, accepted or not (read before and after) */
  unchanged?: () => Promise<string>;
}
export interface FuzzClass {
  name: string;
  arbitrary: fc.Arbitrary<FuzzRequest>;
}

const none = { params: Promise.resolve({}) };
const post = (url: string, body: BodyInit, type = "application/json") => new Request(`http://localhost${url}`, { method: "POST", headers: { "content-type": type }, body });
const get = (url: string) => new Request(`http://localhost${url}`);

type Handler<C> = (request: Request, context: C) => Promise<Response>;

/** The handler's answer to the request: called in process, or over HTTP when BATON_FUZZ_URL names a running Baton. */
async function call<C>(handler: Handler<C>, request: Request, context: C): Promise<Response> {
  const base = process.env.BATON_FUZZ_URL;
  if (!base) return handler(request, context);
  const url = new URL(request.url);
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
  return fetch(`${base}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body, redirect: "manual" });
}

/** Strings PostgreSQL, indexes and parsers have trouble with. */
const nastyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "x\udfff", "\ud83d\ude00", "%", "_", "\\", "'; DROP TABLE traces; --", "__proto__", "constructor", "0x10", "1e999", "-0", ""),
  fc.integer({ min: 513, max: 4000 }).map((n) => Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 94))).join("")),
);
/** Deep nesting is spliced into the JSON text (a marker string), so that no test code recurses through it. */
const deepMarker = (levels: number) => `__DEEP_${levels}__`;
const expandDeep = (text: string) => text.replace(/"__DEEP_(\d+)__"/g, (_, n: string) => `${"[".repeat(Number(n))}1${"]".repeat(Number(n))}`);
const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  nastyString,
  fc.constantFrom(1e308, -1e308, 1e15 + 1, -1, 0, 5e-324, 2 ** 53 + 1, 2147483648),
  fc.integer({ min: 60, max: 6000 }).map(deepMarker),
  fc.constant({ __PROTO_MARK__: { nested: "\u0000" } }),
  fc.constant({ constructor: "x", prototype: 1 }),
);

/** Every path (as key lists) into a JSON value, to mutate one place. */
function paths(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...prefix, i], out));
  else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  return out;
}
function setAt(root: unknown, path: (string | number)[], value: unknown, mode: "replace" | "delete" | "add"): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (mode === "delete") delete node[last];
  else if (mode === "add" && typeof node === "object" && !Array.isArray(node)) node[`${String(last)}_extra`] = value;
  else node[last] = value;
  return copy;
}

/** JSON text of a mutated copy of `base` (1-3 mutations), sometimes cut or with a byte changed. */
function mutatedText(base: unknown): fc.Arbitrary<string> {
  const all = paths(base);
  const mutation = fc.tuple(fc.integer({ min: 0, max: all.length - 1 }), nastyValue, fc.constantFrom<"replace" | "delete" | "add">("replace", "delete", "add"));
  return fc.tuple(fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.option(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom("cut", "byte")), { freq: 5 })).map(([mutations, damage]) => {
    let value = base;
    for (const [i, v, mode] of mutations) {
      try {
        value = setAt(value, all[i]!, v, mode);
      } catch {
        // the path went away with an earlier mutation
      }
    }
    let text = expandDeep(JSON.stringify(value).replaceAll("__PROTO_MARK__", "__proto__"));
    if (damage) {
      const at = Math.floor(damage[0] * text.length);
      text = damage[1] === "cut" ? text.slice(0, at) : `${text.slice(0, at)}${"\u0000{[\"\\"[at % 5]}${text.slice(at + 1)}`;
    }
    return text;
  });
}

/** The foreign trace's row and project, and the local user's labels on the labelled trace: what the two takeover classes must leave alone. */
const foreignTrace = async () =>
  JSON.stringify((await pool().query("SELECT t.id, p.name, t.event_count FROM traces t JOIN projects p ON p.id = t.project_id WHERE t.trace_id = $1", [FUZZ_FOREIGN.traceId])).rows);
const accountLabels = async () =>
  JSON.stringify((await pool().query(
    `SELECT a.trace_key, a.event_id, a.family, a.value, a.comment, a.updated_at FROM annotations a JOIN users u ON u.id = a.annotator_id
     WHERE NOT u.imported AND a.trace_key = $1 AND a.event_id = '' ORDER BY a.id`, [FUZZ_LABELLED])).rows);
const otlpForeign = toOtlpJson(orchestratorRun().map((s) => ({ ...s, traceId: FUZZ_FOREIGN.traceId })));
const at = "2026-12-01T10:00:00.000Z";
const extendedLabelled = {
  ...example, trace_id: FUZZ_LABELLED,
  annotations: [
    { event_id: null, family: "task_success", value: 0, comment: "forged", annotator: "local", updated_at: at },
    { event_id: "e2", family: "step_quality", value: -1, comment: null, annotator: "admin", updated_at: at },
  ],
  adjudications: [{ event_id: null, family: "task_success", value: 0, adjudicator: "local", updated_at: at }],
};

/** Finite numbers at the edges of float8 and of SPEC's limits, for every numeric field. */
const extremeNumber = fc.oneof(
  fc.constantFrom(5e-324, -5e-324, 1e-323, 2.5e-323, 1e-310, 2.2250738585072014e-308, 1e-300, 1e15, -1e15, 999999999999999.9, 0, -0, 1),
  fc.integer({ min: 1, max: 100 }).map((k) => k * 5e-324),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }),
);
const numericPaths = paths(example).filter((p) => typeof p.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], example) === "number");
const extremeTrace = fc.tuple(fc.array(fc.tuple(fc.integer({ min: 0, max: numericPaths.length - 1 }), extremeNumber), { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 3 }))
  .map(([changes, checkpoint]) => {
    let value: unknown = { ...example, project: EXTREME_PROJECT, group_id: "fuzz-extreme-group", metadata: { policy_version: `ckpt-${checkpoint}` } };
    for (const [i, v] of changes) value = setAt(value, numericPaths[i]!, v, "replace");
    // an event's end at or after its start, so that most cases are stored (and then aggregated)
    for (const e of (value as { events: { t: number; t_end?: number }[] }).events) if (e.t_end !== undefined && e.t_end < e.t) e.t_end = e.t;
    return value;
  });
/** A one-event trace whose duration, tokens and cost are extreme: its metric columns (busy_time, makespan, tail_tokens...) carry them. */
const nonNegative = extremeNumber.map(Math.abs);
const oneEventTrace = fc.tuple(nonNegative, nonNegative, nonNegative, fc.integer({ min: 0, max: 3 })).map(([duration, tokens, cost, checkpoint]) => ({
  ...example, project: EXTREME_PROJECT, group_id: "fuzz-extreme-group", metadata: { policy_version: `ckpt-${checkpoint}` }, rewards: {},
  events: [{ id: "e1", t: 0, t_end: duration, type: "aggregate", agent: "a", tokens }], edges: [],
  costs: { ...(example.costs as object), tokens, usd: cost },
}));
const AGGREGATES = [
  () => call(metrics, get(`/api/metrics?project=${EXTREME_PROJECT}`), none),
  () => call(dashboard, get(`/api/dashboard?project=${EXTREME_PROJECT}`), none),
  () => call(decisions, get(`/api/decisions?project=${EXTREME_PROJECT}`), none),
  () => call(heatmap, get(`/api/heatmap?kind=role-family&project=${EXTREME_PROJECT}`), none),
  () => call(trend, get(`/api/diagnostics/trend?project=${EXTREME_PROJECT}`), none),
  () => call(groupView, get("/api/groups/fuzz-extreme-group"), { params: Promise.resolve({ group_id: "fuzz-extreme-group" }) }),
];
/** Ingests one trace of extreme numbers (once stored, the project keeps the newest 8), then asks every aggregate: the first 5xx, else the ingest's refusal, else the last answer. */
async function ingestAndAggregate(trace: unknown): Promise<Response> {
  const stored = await call(ingest, post("/api/traces", JSON.stringify({ ...(trace as object), trace_id: fuzzTraceId() })), none);
  if (stored.status >= 400) return stored;
  await stored.arrayBuffer();
  await pool().query(
    "DELETE FROM traces WHERE id IN (SELECT t.id FROM traces t JOIN projects p ON p.id = t.project_id WHERE p.name = $1 ORDER BY t.id DESC OFFSET 8)",
    [EXTREME_PROJECT],
  );
  for (const [i, ask] of AGGREGATES.entries()) {
    const answer = await ask();
    if (answer.status >= 500 || i === AGGREGATES.length - 1) return answer;
    await answer.arrayBuffer();
  }
  return stored;
}

const fuzzTraceId = () => `fuzz-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
const traceBase = () => ({ ...example, trace_id: fuzzTraceId() });

export const FUZZ_CLASSES: FuzzClass[] = [
  {
    name: "trace JSON (mutated)",
    arbitrary: fc.tuple(mutatedText(example), fc.boolean()).map(([text, upsert]) => ({
      writes: "traces",
      send: () => call(ingest, post(`/api/traces${upsert ? "?upsert=1" : ""}`, text.replace(`"${String(example.trace_id)}"`, `"${fuzzTraceId()}"`)), none),
    })),
  },
  {
    name: "JSONL (mutated lines)",
    arbitrary: fc.array(fc.oneof(mutatedText(example), fc.constant(null)), { minLength: 1, maxLength: 4 }).map((lines) => ({
      writes: "traces",
      send: () => call(ingest, post("/api/traces", lines.map((l) => l ?? JSON.stringify(traceBase())).join("\n"), "application/x-ndjson"), none),
    })),
  },
  {
    name: "OTLP JSON (mutated)",
    arbitrary: mutatedText(otlpBase).map((text) => ({ writes: "otel", send: () => call(otlp, post("/api/otel/v1/traces", text), undefined) })),
  },
  {
    name: "OTLP protobuf (bytes)",
    arbitrary: fc.tuple(fc.uint8Array({ maxLength: 64 }), fc.integer({ min: 0, max: 2000 }), fc.boolean()).map(([noise, at, replace]) => {
      const good = new Uint8Array(encodeTraceRequest(otlpBase));
      const bytes = replace ? new Uint8Array([...good.subarray(0, at), ...noise, ...good.subarray(at + noise.length)]) : noise;
      return { writes: "otel", send: () => call(otlp, post("/api/otel/v1/traces", bytes, "application/x-protobuf"), undefined) };
    }),
  },
  {
    name: "query strings",
    arbitrary: fc.tuple(
      fc.constantFrom("traces", "metrics", "dashboard", "credit", "graph"),
      fc.array(fc.tuple(fc.constantFrom("cursor", "limit", "q", "project", "system", "task_id", "group_id", "verdict", "topology", "from", "to", "part", "w.cost", "w.task_success", "method", "preset", "normalize", "__proto__", "constructor"), nastyString), { maxLength: 4 }),
    ).map(([target, pairs]) => {
      const qs = new URLSearchParams(pairs).toString();
      const id = { params: Promise.resolve({ id: FUZZ_TRACE }) };
      const send = {
        traces: () => call(list, get(`/api/traces?${qs}`), none),
        metrics: () => call(metrics, get(`/api/metrics?${qs}`), none),
        dashboard: () => call(dashboard, get(`/api/dashboard?${qs}`), none),
        credit: () => call(credit, get(`/api/traces/${FUZZ_TRACE}/credit?${qs}`), id),
        graph: () => call(graph, get(`/api/traces/${FUZZ_TRACE}/graph?${qs}`), id),
      }[target];
      return { writes: null, send };
    }),
  },
  {
    name: "path ids",
    arbitrary: fc.tuple(fc.oneof(nastyString, fc.string()), fc.constantFrom("trace", "graph", "queue", "rubrics")).map(([raw, target]) => {
      const ctx = { params: Promise.resolve({ id: raw }) };
      // byte by byte: encodeURIComponent throws on a lone surrogate, which is exactly what must be sent
      const url = [...Buffer.from(raw, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
      const send = {
        trace: () => call(getTrace, get(`/api/traces/${url}`), ctx),
        graph: () => call(graph, get(`/api/traces/${url}/graph?part=events`), ctx),
        queue: () => call(queue, get(`/api/queues/${url}`), ctx),
        // the handler receives the segment as Next passes it: still %-encoded
        rubrics: () => call(rubrics, get(`/api/projects/${url}/rubrics`), { params: Promise.resolve({ project: url }) }),
      }[target];
      return { writes: null, send };
    }),
  },
  {
    name: "OTLP onto another project's trace",
    arbitrary: fc.tuple(fc.oneof(mutatedText(otlpForeign), fc.constant(JSON.stringify(otlpForeign))), fc.boolean()).map(([text, flushNow]) => ({
      writes: "otel",
      unchanged: foreignTrace,
      send: async () => {
        const sent = await call(otlp, post("/api/otel/v1/traces", text), undefined);
        if (!flushNow || sent.status >= 300) return sent;
        await sent.arrayBuffer();
        return call(flush, post("/api/otel/v1/flush", JSON.stringify({ trace_id: FUZZ_FOREIGN.traceId })), none);
      },
    })),
  },
  {
    name: "extended labels in accounts' names",
    arbitrary: fc.tuple(fc.oneof(mutatedText(extendedLabelled), fc.constant(JSON.stringify(extendedLabelled))), fc.boolean()).map(([text, viaImport]) => ({
      writes: "traces",
      unchanged: accountLabels,
      send: () => (viaImport ? call(importFile, post("/api/import?upsert=1&name=labels.json", text), none) : call(ingest, post("/api/traces?upsert=1", text), none)),
    })),
  },
  {
    name: "extreme finite numbers, every aggregate",
    arbitrary: fc.oneof({ arbitrary: oneEventTrace, weight: 2 }, { arbitrary: extremeTrace, weight: 1 }).map((trace) => ({ writes: "traces", send: () => ingestAndAggregate(trace) })),
  },
  {
    name: "small JSON bodies",
    arbitrary: fc.tuple(
      fc.constantFrom("annotation", "preset"),
      fc.oneof(
        mutatedText({ family: "step_quality", value: 0.5, comment: "fine", event_id: "e2" }),
        mutatedText({ name: "fuzz-preset", weights: { task_success: 1, step_quality: 0, tool_use_correctness: 0, orchestration: 0, parallelism_speedup: 0, communication_efficiency: 0, stop_decision: 0, cost: 0 } }),
      ),
    ).map(([target, text]) => ({
      writes: target === "annotation" ? "annotations" : "presets",
      send: () => (target === "annotation" ? call(annotate, post(`/api/traces/${FUZZ_TRACE}/annotations`, text), { params: Promise.resolve({ id: FUZZ_TRACE }) }) : call(presets, post("/api/presets", text), none)),
    })),
  },
];
