/**
 * `npm run hacking:hits`: the hacking detectors (docs/metrics.md, "Hacking
 * diagnostics") over the real MARBLE and Who&When runs in ../shared/data,
 * imported in memory through lib/adapters (nothing is stored). Prints, per
 * detector and dataset, how many runs it flags, and their trace ids.
 *
 *   npm run hacking:hits [-- --data ../shared/data] [--values]
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { adapt, detectPath } from "@/lib/adapters";
import { computeDiagnostics, TRACE_DETECTORS, type TraceDiagnostics } from "@/lib/hacking";
import { validateTrace } from "@/lib/trace/validate";

interface Run {
  dataset: string;
  trace_id: string;
  diagnostics: TraceDiagnostics;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }))) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(full)));
    else if (/\.(json|jsonl)$/.test(e.name)) out.push(full);
  }
  return out;
}

async function runsOf(dataset: string, dir: string, problems: string[]): Promise<Run[]> {
  const runs: Run[] = [];
  for (const file of await filesUnder(dir)) {
    const format = await detectPath(file);
    if (format === null || format === "baton") {
      problems.push(`${file}: not a MARBLE or Who&When file (${format ?? "unknown format"}), skipped`);
      continue;
    }
    for await (const adapted of adapt(format, file)) {
      const result = validateTrace(adapted);
      if (!result.ok) {
        problems.push(`${file} ${adapted.trace_id}: ${result.problems.length} validation problem(s), skipped`);
        continue;
      }
      runs.push({ dataset, trace_id: result.trace.trace_id, diagnostics: computeDiagnostics(result.trace) });
    }
  }
  return runs;
}

async function main() {
  const args = process.argv.slice(2);
  const dataAt = args.indexOf("--data");
  const data = dataAt >= 0 && args[dataAt + 1] ? args[dataAt + 1]! : "../shared/data";
  const showValues = args.includes("--values");
  const problems: string[] = [];
  const datasets = [
    ["MARBLE", path.join(data, "multiagentbench_marble")],
    ["Who&When", path.join(data, "who_and_when")],
  ] as const;
  const all: Run[] = [];
  for (const [name, dir] of datasets) all.push(...(await runsOf(name, dir, problems)));
  for (const p of problems) console.error(p);

  console.log("detector               | dataset  | runs | with a value | flagged");
  console.log("-----------------------|----------|------|--------------|--------");
  for (const d of TRACE_DETECTORS) {
    for (const [name] of datasets) {
      const runs = all.filter((r) => r.dataset === name);
      const valued = runs.filter((r) => r.diagnostics.detectors[d].value !== null).length;
      const flagged = runs.filter((r) => r.diagnostics.detectors[d].flagged).length;
      console.log(`${d.padEnd(22)} | ${name.padEnd(8)} | ${String(runs.length).padStart(4)} | ${String(valued).padStart(12)} | ${String(flagged).padStart(7)}`);
    }
  }
  console.log("verifier_collusion: needs judge and human labels across checkpoints; these files carry neither (not computed)\n");
  for (const d of TRACE_DETECTORS) {
    for (const [name] of datasets) {
      const hits = all.filter((r) => r.dataset === name && r.diagnostics.detectors[d].flagged);
      if (hits.length === 0) continue;
      const label = (r: Run) => (showValues ? `${r.trace_id} (${r.diagnostics.detectors[d].value!.toFixed(3)}; ${r.diagnostics.detectors[d].events.length} events)` : r.trace_id);
      console.log(`${d} / ${name}: ${hits.map(label).join(", ")}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
