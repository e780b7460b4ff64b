import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { fmt } from "../db";

/**
 * Section 3 of bench:dataset, through the route handlers in this process
 * (as the server runs them): `n` exports of one big trace at once, drained
 * as a client would, while small requests (GET /api/traces?limit=1 and a
 * label write, one after another) keep going. Three runs in the same
 * process: small requests alone (their baseline), the exports with every
 * one admitted at once (slots = n: how exports ran before they took
 * turns), and with the default slots. Prints time, sampled peak heap and
 * RSS of each run, and p50/p99 of the small requests.
 */
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

interface Run {
  label: string;
  seconds: number;
  peakHeapMB: number;
  peakRssMB: number;
  small: { count: number; p50: number; p99: number; max: number };
  statuses: string;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

export async function fairness(opts: { bigId: string; smallId: string; exports: number; smallAlone: number }): Promise<void> {
  const { GET: listTraces } = (await import("@/app/api/traces/route")) as unknown as { GET: Handler };
  const { GET: exportTrace } = (await import("@/app/api/traces/[id]/export/route")) as unknown as { GET: Handler };
  const { POST: label } = (await import("@/app/api/traces/[id]/annotations/route")) as unknown as { POST: Handler };
  const { setExportLimits } = await import("@/lib/server/compute/export-slots");
  const none = { params: Promise.resolve({}) };
  const onSmall = { params: Promise.resolve({ id: opts.smallId }) };
  let flip = 0;

  /** One small request: the list's first page, or a label write (alternately); its latency in ms. */
  async function small(): Promise<number> {
    const t = performance.now();
    const response = flip++ % 2 === 0
      ? await listTraces(new Request("http://localhost/api/traces?limit=1"), none)
      : await label(new Request(`http://localhost/api/traces/${opts.smallId}/annotations`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ family: "step_quality", value: flip % 4 === 1 ? 0.25 : 0.75 }) }), onSmall);
    await response.arrayBuffer();
    if (response.status >= 300) throw new Error(`small request answered ${response.status}`);
    return performance.now() - t;
  }

  async function run(label: string, slots: number | null): Promise<Run> {
    collectGarbage();
    if (slots !== null) setExportLimits({ slots, queue: 16 });
    let peakHeap = 0;
    let peakRss = 0;
    const sample = () => {
      const m = process.memoryUsage();
      peakHeap = Math.max(peakHeap, m.heapUsed);
      peakRss = Math.max(peakRss, m.rss);
    };
    const probe = setInterval(sample, 25);
    const latencies: number[] = [];
    const started = performance.now();
    const statuses = new Map<number, number>();
    if (slots === null) {
      for (let i = 0; i < opts.smallAlone; i++) latencies.push(await small());
    } else {
      let done = false;
      const exports = Promise.all(Array.from({ length: opts.exports }, async () => {
        const response = await exportTrace(new Request(`http://localhost/api/traces/${opts.bigId}/export?format=jsonl`), { params: Promise.resolve({ id: opts.bigId }) });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const reader = response.body!.getReader();
        let bytes = 0;
        for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
        return bytes;
      })).finally(() => (done = true));
      const smalls = (async () => {
        // the exports' first reads go out first, as when big exports are already running
        await new Promise((r) => setTimeout(r, 20));
        while (!done) latencies.push(await small());
      })();
      await Promise.all([exports, smalls]);
    }
    clearInterval(probe);
    sample();
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      label,
      seconds: (performance.now() - started) / 1000,
      peakHeapMB: peakHeap / 1e6,
      peakRssMB: peakRss / 1e6,
      small: { count: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted.at(-1) ?? NaN },
      statuses: [...statuses].map(([s, n]) => `${n} x ${s}`).join(", ") || "-",
    };
  }

  const runs = [
    await run("small requests alone (baseline)", null),
    await run(`${opts.exports} exports, all admitted at once (slots ${opts.exports}: before)`, opts.exports),
    await run(`${opts.exports} exports, default slots (2)`, 2),
  ];
  setExportLimits({ slots: 2, queue: 16 });
  console.log("| run | exports answered | time | peak heap (sampled) | peak RSS (sampled) | small requests | p50 | p99 | max |\n|---|---|---|---|---|---|---|---|---|");
  for (const r of runs) {
    console.log(`| ${r.label} | ${r.statuses} | ${fmt(r.seconds, 1)} s | ${fmt(r.peakHeapMB)} MB | ${fmt(r.peakRssMB)} MB | ${fmt(r.small.count)} | ${fmt(r.small.p50, 1)} ms | ${fmt(r.small.p99, 1)} ms | ${fmt(r.small.max, 1)} ms |`);
  }
  const [alone, before, after] = runs as [Run, Run, Run];
  console.log(`peak heap: ${fmt(after.peakHeapMB)} MB with slots vs ${fmt(before.peakHeapMB)} MB all at once (${fmt(after.peakHeapMB / before.peakHeapMB, 2)}x); small-request p99: ${fmt(after.small.p99, 1)} ms with slots vs ${fmt(before.small.p99, 1)} ms all at once vs ${fmt(alone.small.p99, 1)} ms alone`);
}
