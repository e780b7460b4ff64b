/**
 * `npm run bench:blame [-- --json out.json --k 5 --seed 1]`
 *
 * Failure attribution on Who&When (shared/data/who_and_when: 58 Hand-Crafted
 * and 80 Algorithm-Generated failed runs, each labelled with the decisive
 * agent and step). The runs go through Baton's adapter and validation, the
 * label is read from the adapted trace's metadata and then stripped
 * (lib/blame blameInput), and every method is scored per subset: step and
 * agent accuracy top-1, top-3 and MRR with Wilson 95 % intervals. Learned
 * methods are scored under k-fold cross-validation by trace; the counting
 * priors are also shown in-sample. No database needed.
 */
import { readdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { adapt } from "@/lib/adapters";
import { blameInput, evaluateMethods, METHODS, pickBest, scoreRankings, simulateGuided, type BlameScores, type LabelledTrace, type MethodEvaluation } from "@/lib/blame";
import { validateTrace } from "@/lib/trace/validate";

const { values } = parseArgs({ options: { json: { type: "string" }, k: { type: "string", default: "5" }, seed: { type: "string", default: "1" } } });
const CV = { k: Number(values.k), seed: Number(values.seed) };
const DATA = "../shared/data/who_and_when";
const SUBSETS = ["Hand-Crafted", "Algorithm-Generated"] as const;

/** Published figures on the same benchmark (agent / step top-1). */
const ANCHORS = [
  { name: "Who&When paper, best LLM method (all-at-once)", agent: 0.535, step: 0.142 },
  { name: "AgenTracer-8B (about)", agent: 0.69, step: "0.20-0.43" },
];

async function load(subset: string): Promise<LabelledTrace[]> {
  const folder = `${DATA}/${subset}`;
  const files = readdirSync(folder).sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  const out: LabelledTrace[] = [];
  for (const file of files) {
    for await (const adapted of adapt("whowhen", `${folder}/${file}`)) {
      const truth = adapted.metadata!.ground_truth as { mistake_event_id: string; mistake_agent: string };
      const result = validateTrace(adapted);
      if (!result.ok) throw new Error(`${file}: ${result.problems.map((p) => p.message).join("; ")}`);
      out.push({ input: blameInput(result.trace), decisive_event_id: truth.mistake_event_id, decisive_agent: truth.mistake_agent });
    }
  }
  return out;
}

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

async function main(): Promise<void> {
  const report: Record<string, unknown> = { cv: CV, anchors: ANCHORS, subsets: {} };
  for (const subset of SUBSETS) {
    const started = performance.now();
    const labelled = await load(subset);
    const evaluations = evaluateMethods(labelled, CV);
    const best = pickBest(evaluations);
    const inSample: MethodEvaluation[] = METHODS.filter((m) => m.learned && m.name.startsWith("frequent_")).map((m) => {
      if (!m.learned) throw new Error("unreachable");
      const model = m.train(labelled);
      const scores = scoreRankings(labelled.map((t) => ({ ranking: m.rank(model, t.input), decisive_event_id: t.decisive_event_id, decisive_agent: t.decisive_agent })));
      return { method: `${m.name} (in-sample)`, learned: true, scores, not_applicable: 0, cv: null };
    });
    console.log(`\n${subset}: ${labelled.length} runs, learned methods under ${CV.k}-fold CV by trace (seed ${CV.seed}); best (step top-1): ${best}`);
    console.log(["method".padEnd(26), "agent top-1 [95% CI]".padEnd(19), "agent top-3".padEnd(19), "MRR".padEnd(6), "step top-1 [95% CI]".padEnd(19), "step top-3".padEnd(19), "MRR".padEnd(6)].join(" "));
    for (const e of [...evaluations, ...inSample]) console.log(row(e.method, e.scores, e.cv ? `CV ${e.cv.k}-fold` : e.not_applicable > 0 ? `(${e.not_applicable} not applicable: no group)` : ""));
    for (const a of ANCHORS) console.log(`${a.name}: agent ${typeof a.agent === "number" ? pct(a.agent) : a.agent} %, step ${typeof a.step === "number" ? pct(a.step) : a.step}`);
    const guided = guidedAnswers(labelled, best);
    console.log(`guided mode, truthful annotator: ${guided.weighted.toFixed(2)} answers per run with the ${best} ranking as prior (under CV), ${guided.plain.toFixed(2)} with plain bisection (ratio ${(guided.weighted / guided.plain).toFixed(2)}); mean events per run ${guided.events.toFixed(1)}; found the decisive step in ${guided.found}/${labelled.length}`);
    console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
    (report.subsets as Record<string, unknown>)[subset] = { runs: labelled.length, best, methods: [...evaluations, ...inSample], guided };
  }
  if (values.json) {
    await writeFile(values.json, JSON.stringify(report, null, 2));
    console.log(`\nwrote ${values.json}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
