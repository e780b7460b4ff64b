/**
 * `npm run bench:blame [-- --json out.json --k 5 --seed 1]`, `npm run bench:blame -- --report [--runs 100]`
 *
 * Failure attribution on Who&When (shared/data/who_and_when: 58 Hand-Crafted
 * and 80 Algorithm-Generated failed runs, each labelled with the decisive
 * agent and step). The runs go through Baton's adapter and validation, the
 * label is read from the adapted trace's metadata and then stripped
 * (lib/blame blameInput), and every method is scored per subset: step and
 * agent accuracy top-1, top-3 and MRR with Wilson 95 % intervals. Learned
 * methods are scored under k-fold cross-validation by trace; the counting
 * priors are also shown in-sample. Then nested CV per subset, both subsets as
 * one project (the pick made once, and per system), and across systems. No
 * database needed. `--report` instead times the Attribution page's whole
 * scoring (lib/blame/report.ts, what one scoring job computes) of the first
 * `--runs` runs of both subsets as one project: CPU and wall time, and the
 * time of each part as its progress reports it (`--json out.json` writes the report; `--threads n`, default 2,
 * as BATON_BLAME_THREADS: the threads it is computed in). The 20 hold-out runs
 * (lib/blame/holdout.ts) are left out of all of it; the run ends with
 * `--honest` (scripts/bench/blame-honest.ts): nested CV by task and by run,
 * file order, cross-system, then the hold-out scored once. `--honest
 * --no-holdout` runs the diagnosis alone, `--honest --holdout` the hold-out alone. `--portable fixed|nested
 * [--bag]` (scripts/bench/blame-portable.ts): models meant to carry better to new runs, on the 118 runs outside the
 * hold-out.
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { evaluateMethods, INNER_K, METHODS, nestedCv, nestedRankings, pickBest, scoredTraces, scoreRankings, simulateGuided, transfer, type BlameScores, type LabelledTrace, type LearnedMethod, type MethodEvaluation } from "@/lib/blame";
import { attributionReport, estimatedSeconds } from "@/lib/blame/report";
import { loadWhoAndWhen, WHO_AND_WHEN_SUBSETS } from "../lib/who-and-when";
import { honestBench } from "./blame-honest";
import { portableBench } from "./blame-portable";
import { isHoldout } from "@/lib/blame/holdout";
import { threadHelpers } from "@/lib/server/blame/report-threads";

const { values } = parseArgs({ options: { json: { type: "string" }, k: { type: "string", default: "5" }, seed: { type: "string", default: "1" }, report: { type: "boolean", default: false }, honest: { type: "boolean", default: false }, "no-holdout": { type: "boolean", default: false }, holdout: { type: "boolean", default: false }, portable: { type: "string" }, bag: { type: "boolean", default: false }, runs: { type: "string" }, threads: { type: "string", default: "2" } } });
const CV = { k: Number(values.k), seed: Number(values.seed) };
const SUBSETS = WHO_AND_WHEN_SUBSETS;

/** Published figures on the same benchmark (agent / step top-1). */
const ANCHORS = [
  { name: "Who&When paper, best LLM method (all-at-once)", agent: 0.535, step: 0.142 },
  { name: "AgenTracer-8B (about)", agent: 0.69, step: "0.20-0.43" },
];

const pct = (x: number) => `${(100 * x).toFixed(1)}`;
const cell = (s: { value: number; low: number; high: number }) => `${pct(s.value)} [${pct(s.low)}-${pct(s.high)}]`.padEnd(19);

function row(name: string, s: BlameScores | null, note = ""): string {
  if (!s) return `${name.padEnd(26)} not applicable ${note}`;
  return [name.padEnd(26), cell(s.agent.top1), cell(s.agent.top3), pct(s.agent.mrr.value).padEnd(6), cell(s.step.top1), cell(s.step.top3), pct(s.step.mrr.value).padEnd(6), note].join(" ");
}

/** Mean answers of a truthful annotator (from the label) per run: with the best method's CV ranking as prior, and with none. */
function guidedAnswers(labelled: readonly LabelledTrace[], best: string | null) {
  const sim = simulateGuided(labelled, labelled.map((t) => t.input.trace.trace_id), best, CV);
  const n = labelled.length;
  return { weighted: sim.mean_answers ?? 0, plain: sim.plain_mean_answers ?? 0, events: sim.runs.reduce((s, r) => s + r.events, 0) / n, found: sim.runs.filter((r) => r.found).length };
}

const HEADER = ["method".padEnd(26), "agent top-1 [95% CI]".padEnd(19), "agent top-3".padEnd(19), "MRR".padEnd(6), "step top-1 [95% CI]".padEnd(19), "step top-3".padEnd(19), "MRR".padEnd(6)].join(" ");

/** How often each candidate was kept, e.g. "learned_events(l2=0.3,all) x3, ...". */
function tally(chosen: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of chosen) counts.set(c, (counts.get(c) ?? 0) + 1);
  return [...counts].map(([c, n]) => `${c} x${n}`).join(", ");
}

/** One scoring of the Attribution page, timed: what the page's estimate (SECONDS_PER_EVENT) is measured from. */
async function timeReport(): Promise<void> {
  const all = (await Promise.all(SUBSETS.map(async (s) => (await loadWhoAndWhen(s)).map((t) => ({ t, s }))))).flat();
  // interleaved, so that a prefix holds both systems
  const order = [...all].sort((a, b) => all.filter((x) => x.s === a.s).indexOf(a) - all.filter((x) => x.s === b.s).indexOf(b));
  const picked = order.slice(0, values.runs ? Number(values.runs) : order.length);
  const input = { labelled: picked.map((p) => p.t), traceIds: picked.map((p) => p.t.input.trace.trace_id), systems: picked.map((p) => p.s), judged: [] };
  const cpu = process.cpuUsage();
  const started = performance.now();
  let last = started;
  let lastShare = 0;
  const result = attributionReport(input, (share) => {
    const now = performance.now();
    if (share - lastShare >= 0.05 || share === 1) {
      console.log(`  ${(100 * share).toFixed(0).padStart(3)} % at ${((now - started) / 1000).toFixed(1)} s (+${((now - last) / 1000).toFixed(1)} s)`);
      last = now;
      lastShare = share;
    }
  }, threadHelpers(Number(values.threads) - 1));
  const wall = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  if (values.json) {
    // the whole report as JSON (floats written exactly): two builds' reports of the same runs compare with `cmp`
    await writeFile(values.json, JSON.stringify(result, null, 1));
    console.log(`wrote ${values.json}`);
  }
  console.log(`scoring of ${picked.length} runs (${SUBSETS.map((s) => `${picked.filter((p) => p.s === s).length} ${s}`).join(", ")}) in ${values.threads} thread(s): ${wall.toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU (all threads), ${(wall / picked.length).toFixed(2)} s per run (the page's estimate on an idle machine: ${estimatedSeconds(picked.reduce((sum, p) => sum + p.t.input.trace.events.length, 0), Number(values.threads))} s)`);
}

async function main(): Promise<void> {
  if (values.report) return timeReport();
  if (values.portable) return portableBench(values.portable, CV.seed, values.bag);
  if (values.honest) return honestBench(values.json, { diagnose: !values.holdout, holdout: !values["no-holdout"] });
  const report: Record<string, unknown> = { cv: CV, anchors: ANCHORS, subsets: {}, nested: {}, pooled: {}, cross_system: {} };
  const data = new Map<string, LabelledTrace[]>();
  // the hold-out (lib/blame/holdout.ts) enters nothing but its own scoring, last
  for (const subset of SUBSETS) data.set(subset, (await loadWhoAndWhen(subset)).filter((t) => !isHoldout(t.input.trace.trace_id)));
  for (const subset of SUBSETS) {
    const started = performance.now();
    const labelled = data.get(subset)!;
    const evaluations = evaluateMethods(labelled, CV);
    const best = pickBest(evaluations);
    const inSample: MethodEvaluation[] = METHODS.filter((m) => m.learned && m.name.startsWith("frequent_")).map((m) => {
      if (!m.learned) throw new Error("unreachable");
      const model = m.train(labelled);
      const scores = scoreRankings(labelled.map((t) => ({ ranking: m.rank(model, t.input), decisive_event_id: t.decisive_event_id, decisive_agent: t.decisive_agent })));
      return { method: `${m.name} (in-sample)`, learned: true, scores, not_applicable: 0, cv: null };
    });
    console.log(`\n${subset}: ${labelled.length} runs, learned methods under ${CV.k}-fold CV by trace (seed ${CV.seed}); best (step top-1): ${best}`);
    console.log(HEADER);
    for (const e of [...evaluations, ...inSample]) console.log(row(e.method, e.scores, e.cv ? `CV ${e.cv.k}-fold` : e.not_applicable > 0 ? `(${e.not_applicable} not applicable: no group)` : ""));
    for (const a of ANCHORS) console.log(`${a.name}: agent ${typeof a.agent === "number" ? pct(a.agent) : a.agent} %, step ${typeof a.step === "number" ? pct(a.step) : a.step}`);
    const guided = guidedAnswers(labelled, best);
    console.log(`guided mode, truthful annotator: ${guided.weighted.toFixed(2)} answers per run with the ${best} ranking as prior (under CV), ${guided.plain.toFixed(2)} with plain bisection (ratio ${(guided.weighted / guided.plain).toFixed(2)}); mean events per run ${guided.events.toFixed(1)}; found the decisive step in ${guided.found}/${labelled.length}`);
    console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
    (report.subsets as Record<string, unknown>)[subset] = { runs: labelled.length, best, methods: [...evaluations, ...inSample], guided };
  }
  for (const subset of SUBSETS) {
    const started = performance.now();
    const labelled = data.get(subset)!;
    const nested = nestedCv(labelled, undefined, CV);
    console.log(`\n${subset}: nested CV (outer ${CV.k} folds, seed ${CV.seed}; every setting and the best pick chosen by inner ${INNER_K}-fold CV on the outer training part)`);
    console.log(HEADER);
    for (const r of nested) console.log(row(r.family, r.scores, `kept: ${tally(r.chosen)}`));
    console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
    (report.nested as Record<string, unknown>)[subset] = nested;
  }
  // one project holding both subsets, as `method=best` and the project's models see it: trained on the union, scored per subset;
  // the pick made once for the project, and made per system on its own training traces (what method=best does)
  const union = SUBSETS.flatMap((s) => data.get(s)!);
  const subsetOf = SUBSETS.flatMap((s) => data.get(s)!.map(() => s));
  const pooled: Record<string, unknown> = {};
  for (const [label, systems] of [["one pick for the project", undefined], ["a pick per system", subsetOf]] as const) {
    const started = performance.now();
    const ranked = nestedRankings(union, undefined, CV, systems);
    console.log(`\nboth subsets as one project (${union.length} runs), ${label}: nested CV (outer ${CV.k} folds, seed ${CV.seed}; settings and the best pick chosen by inner ${INNER_K}-fold CV on the outer training part), scored per subset`);
    const out: Record<string, unknown> = {};
    for (const subset of SUBSETS) {
      console.log(`${subset}:`);
      console.log(HEADER);
      out[subset] = ranked.map(({ family, rankings, chosen }) => {
        const scores = scoreRankings(scoredTraces(union, rankings, (i) => subsetOf[i] === subset));
        const kept = systems ? chosen.filter((c) => c.startsWith(`${subset}: `)).map((c) => c.slice(subset.length + 2)) : chosen;
        console.log(row(family, scores, `kept: ${tally(kept)}`));
        return { family, scores, chosen: kept };
      });
    }
    console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
    pooled[label] = out;
  }
  report.pooled = pooled;
  const learned = METHODS.filter((m): m is LearnedMethod => m.learned);
  const heuristics = METHODS.filter((m) => !m.learned && !m.needs_group && ["random", "first_step", "last_event", "most_active_agent", "errors", "neg_credit_ccp"].includes(m.name));
  for (const [from, to] of [[SUBSETS[1], SUBSETS[0]], [SUBSETS[0], SUBSETS[1]]] as const) {
    const started = performance.now();
    const results = transfer(data.get(from)!, data.get(to)!, learned, undefined, { k: INNER_K, seed: CV.seed });
    console.log(`\ncross-system: trained on ${from} (${data.get(from)!.length} runs, settings and best chosen by ${INNER_K}-fold CV there), scored on ${to} (${data.get(to)!.length} runs)`);
    console.log(HEADER);
    for (const r of results) console.log(row(r.method, r.scores, r.chosen ? `kept: ${r.chosen}` : "trained on the other system"));
    for (const m of heuristics) {
      if (m.learned) continue;
      const target = data.get(to)!;
      console.log(row(m.name, scoreRankings(target.map((t) => ({ ranking: m.rank(t.input), decisive_event_id: t.decisive_event_id, decisive_agent: t.decisive_agent }))), "untrained prior"));
    }
    console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
    (report.cross_system as Record<string, unknown>)[`${from} -> ${to}`] = results;
  }
  if (values.json) {
    await writeFile(values.json, JSON.stringify(report, null, 2));
    console.log(`\nwrote ${values.json}`);
  }
  // last: the estimate that holds on new runs (by task, file order, cross-system) and the hold-out's figures
  await honestBench();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
