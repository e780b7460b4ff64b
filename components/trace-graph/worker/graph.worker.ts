/**
 * The layout worker: fetches the graph API's pages and parses them off the
 * main thread, then answers layout, scene (level of detail), lineage,
 * search and credit requests from a GraphEngine. A newer scene, load or
 * credit request supersedes an older one still waiting (answered
 * "cancelled"; fetches are aborted).
 *
 * URLs are absolute (`origin` comes from the page): under Turbopack a
 * worker's own location can be a blob: URL.
 */
import { callBytes } from "@/lib/api/client";
import { graphCreditPart, traceGraph } from "@/lib/api/contracts/traces";
import { GraphEngine } from "@/lib/graph-view/engine";
import type { WorkerRequest, WorkerResponse, WorkerResults } from "@/lib/graph-view/protocol";
import { CREDIT_PAGE_MAX, type GraphCreditPage, type GraphEventsPage } from "@/lib/graph-view/wire";

interface WorkerScope {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: WorkerResponse, transfer?: Transferable[]): void;
}
const scope = globalThis as unknown as WorkerScope;

type Req<K extends WorkerRequest["kind"]> = Extract<WorkerRequest, { kind: K }>;

let engine: GraphEngine | null = null;
/** the trace being drawn and the page's origin (the worker's fetches are absolute) */
let source = { traceId: "", origin: "" };
let load: { id: number; abort: AbortController } | null = null;
let credit: { id: number; abort: AbortController } | null = null;
let pendingScene: Req<"scene"> | null = null;
const decoder = new TextDecoder();

const ok = <K extends keyof WorkerResults>(id: number, kind: K, result: WorkerResults[K], transfer: Transferable[] = []) =>
  scope.postMessage({ id, status: "ok", kind, result }, transfer);
const fail = (id: number, error: unknown) => scope.postMessage({ id, status: "error", message: error instanceof Error ? error.message : String(error) });
const cancelled = (id: number) => scope.postMessage({ id, status: "cancelled" });

scope.onmessage = (event) => {
  const msg = event.data;
  try {
    switch (msg.kind) {
      case "load":
        void startLoad(msg);
        return;
      case "credit":
        void startCredit(msg);
        return;
      case "scene":
        if (pendingScene) cancelled(pendingScene.id);
        else setTimeout(flushScene, 0); // lets newer scene requests queued behind this one replace it
        pendingScene = msg;
        return;
      case "layout":
        return ok(msg.id, "layout", need().layout(msg.spacing));
      case "describe":
        return ok(msg.id, "describe", need().describe(msg.seq, msg.spacing));
      case "find":
        return ok(msg.id, "find", need().find(msg.text));
      case "lineage": {
        const mask = need().lineage(msg.seq);
        return ok(msg.id, "lineage", mask, [mask.buffer]);
      }
    }
  } catch (error) {
    fail(msg.id, error);
  }
};

function need(): GraphEngine {
  if (!engine?.complete) throw new Error("the graph is still loading");
  return engine;
}

function flushScene() {
  const msg = pendingScene;
  pendingScene = null;
  if (!msg) return;
  try {
    ok(msg.id, "scene", need().scene(msg.spacing, msg.query));
  } catch (error) {
    fail(msg.id, error);
  }
}

/** One part of the graph API as bytes, parsed here (off the main thread); an error answer is thrown with its message. */
async function fetchPart<T>(endpoint: typeof traceGraph | typeof graphCreditPart, query: Record<string, string | number>, signal: AbortSignal): Promise<T> {
  const answer = await callBytes(endpoint, { params: { id: source.traceId }, query }, { signal, origin: source.origin });
  if (!answer.ok) throw new Error(answer.message);
  return JSON.parse(decoder.decode(answer.data)) as T;
}

async function startLoad(msg: Req<"load">) {
  if (load) {
    load.abort.abort();
    cancelled(load.id);
  }
  const abort = new AbortController();
  load = { id: msg.id, abort };
  source = { traceId: msg.traceId, origin: msg.origin };
  const target = new GraphEngine(msg.meta);
  engine = target;
  const { pages, page_size: size } = msg.meta;
  let loaded = 0;
  try {
    let next = 0;
    const worker = async () => {
      while (next < pages) {
        const k = next++;
        const bytes = msg.prefetched[k];
        target.addPage(bytes ? (JSON.parse(decoder.decode(bytes)) as GraphEventsPage) : await fetchPart<GraphEventsPage>(traceGraph, { part: "events", from: k * size, limit: size }, abort.signal));
        loaded += Math.min(size, msg.meta.events - k * size);
        scope.postMessage({ id: msg.id, status: "progress", loaded, total: msg.meta.events });
      }
    };
    await Promise.all(Array.from({ length: Math.min(3, pages) }, worker));
    if (load?.id !== msg.id) return;
    ok(msg.id, "load", target.layout(msg.spacing));
  } catch (error) {
    if (!abort.signal.aborted) fail(msg.id, error);
  } finally {
    if (load?.id === msg.id) load = null;
  }
}

async function startCredit(msg: Req<"credit">) {
  if (credit) {
    credit.abort.abort();
    cancelled(credit.id);
  }
  const abort = new AbortController();
  credit = { id: msg.id, abort };
  try {
    const target = need();
    if (msg.query === null) return ok(msg.id, "credit", target.setCredit(null));
    const pages: GraphCreditPage[] = [];
    for (let from: number | null = 0; from !== null; ) {
      const query = { ...Object.fromEntries(new URLSearchParams(msg.query)), part: "credit", from, limit: CREDIT_PAGE_MAX };
      const page: GraphCreditPage = await fetchPart<GraphCreditPage>(graphCreditPart, query, abort.signal);
      pages.push(page);
      from = page.next;
    }
    if (credit?.id === msg.id) ok(msg.id, "credit", target.setCredit(pages));
  } catch (error) {
    if (!abort.signal.aborted) fail(msg.id, error);
  } finally {
    if (credit?.id === msg.id) credit = null;
  }
}
