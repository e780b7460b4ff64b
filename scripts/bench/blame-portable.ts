/**
 * `npm run bench:blame -- --portable fixed|nested [--seed s]`: attribution models meant to carry better to new runs,
 * none of them registered (none met the bar: docs/metrics.md, "Estimates that hold on new runs"), measured on the 118
 * Who&When runs outside the hold-out only (lib/blame/holdout.ts; the hold-out is never loaded past the filter):
 *   fixed: each at fixed settings beside learned_events, learned_stumps and the untrained priors: 5-fold CV by task
 *     (both subsets as one project, scored per subset; shuffle seed s) and cross-system (trained on one subset,
 *     scored on the other): an event logit on the portable features with a stronger L2; bagging (10 event logits on
 *     bootstrap samples of the training runs, probabilities averaged); the untrained priors' scores as the only
 *     inputs of a small conditional logit;
 *   nested: `best (nested)` under nested CV by task and cross-system (the pick made by inner CV by task on the
 *     training system), without and with the bagged logit (`--bag`) or the mix (`nested:mix`) among its candidates.
 */
import { fitPick, scoreFitted, FIT_INNER_CV } from "@/lib/blame/honest";
import { withTrainingCache } from "@/lib/blame/train-cache";
import { defaultFamilies, nestedRankings, METHODS, taskGroups, rankingsOf, scoredTraces, scoreRankings, DEFAULT_CV, type BlameMethod, type LabelledTrace, type LearnedMethod, type BlameScores, type BlameInput, type HeuristicMethod } from "@/lib/blame";
import { isHoldout } from "@/lib/blame/holdout";
import { STUMPS, stumpProbabilities, trainStumps, type StumpModel } from "@/lib/blame/boosted";
import { contextOf } from "@/lib/blame/input";
import { eventProbabilities, trainEventModel, type EventModel } from "@/lib/blame/learned";
import { isHuman, toRanking } from "@/lib/blame/rank";
import { softmax, trainLogit, type ChoiceSet, type SparseRow } from "@/lib/blame/softmax";
import type { FeatureSet } from "@/lib/blame/features";
import { mulberry32 } from "@/lib/util/random";
import { readFileSync } from "node:fs";
import { loadWhoAndWhen } from "../lib/who-and-when";

const byName = (n: string) => METHODS.find((m) => m.name === n)!;

/** Bagging: K event logits on bootstrap samples of the training runs, their probabilities averaged. */
function bagged(k: number, l2: number, features: FeatureSet): LearnedMethod<{ method: string; trained_on: number; models: EventModel[] }> {
  const name = `bag${k}(l2=${l2},${features})`;
  return {
    name, learned: true, needs_group: false, description: name,
    train: (examples) => {
      const models: EventModel[] = [];
      for (let b = 0; b < k; b++) {
        const rand = mulberry32(1000 + b);
        const sample = examples.map(() => examples[Math.floor(rand() * examples.length)]!);
        models.push(trainEventModel(sample, name, { logit: { l2 }, features }));
      }
      return { method: name, trained_on: examples.length, models };
    },
    rank: (model, input) => {
      const ps = model.models.map((m) => eventProbabilities(m, input).p);
      const { ordered } = contextOf(input);
      return toRanking(name, ordered.map((event, i) => ({ event, score: ps.reduce((a, p) => a + p[i]!, 0) / ps.length, signals: {} })), "sum");
    },
  };
}

/** The bagged portable logit and the portable stumps, their probabilities averaged (learned_mix's way). */
function bagMix(): LearnedMethod<{ method: string; trained_on: number; bag: { models: EventModel[] }; stumps: StumpModel }> {
  const name = "mix(bag10(l2=0.3,portable),stumps(portable))";
  const bag = bagged(10, 0.3, "portable");
  return {
    name, learned: true, needs_group: false, description: name,
    train: (examples) => ({ method: name, trained_on: examples.length, bag: bag.train(examples), stumps: trainStumps(examples, name, { ...STUMPS, features: "portable" }) }),
    rank: (model, input) => {
      const ps = model.bag.models.map((m) => eventProbabilities(m, input).p);
      const q = stumpProbabilities(model.stumps, input);
      return toRanking(name, contextOf(input).ordered.map((event, i) => ({ event, score: (ps.reduce((a, p) => a + p[i]!, 0) / ps.length + q[i]!) / 2, signals: {} })), "sum");
    },
  };
}

/** A single event logit at other settings. */
function single(l2: number, features: FeatureSet): LearnedMethod<EventModel> {
  const name = `events(l2=${l2},${features})`;
  return {
    name, learned: true, needs_group: false, description: name,
    train: (examples) => trainEventModel(examples, name, { logit: { l2 }, features }),
    rank: (model, input) => {
      const { p } = eventProbabilities(model, input);
      return toRanking(name, contextOf(input).ordered.map((event, i) => ({ event, score: p[i]!, signals: {} })), "sum");
    },
  };
}

/** The untrained priors as the only inputs of a small conditional logit. */
const PRIORS = ["errors", "first_step", "answer_origin", "last_event"];
const priorCache = new WeakMap<BlameInput, SparseRow[]>();
function priorRows(input: BlameInput): SparseRow[] {
  let rows = priorCache.get(input);
  if (rows) return rows;
  const { ordered } = contextOf(input);
  const cols: number[][] = PRIORS.map((p) => {
    const r = (byName(p) as HeuristicMethod).rank(input);
    const score = new Map(r.events.map((e) => [e.id, e]));
    const max = Math.max(...r.events.map((e) => e.score));
    const min = Math.min(...r.events.map((e) => e.score));
    const ties = r.events.filter((e) => e.rank === 1).length;
    return ordered.flatMap((e) => {
      const s = score.get(e.id)!;
      return [max > min ? (s.score - min) / (max - min) : 0, s.rank === 1 && ties < ordered.length ? 1 : 0];
    });
  });
  rows = ordered.map((e, i) => {
    const idx: number[] = [];
    const val: number[] = [];
    PRIORS.forEach((_, p) => {
      for (let c = 0; c < 2; c++) {
        const v = cols[p]![2 * i + c]!;
        if (v !== 0) { idx.push(2 * p + c); val.push(v); }
      }
    });
    if (isHuman(e)) { idx.push(2 * PRIORS.length); val.push(1); }
    return { idx, val };
  });
  priorCache.set(input, rows);
  return rows;
}
function priorsLogit(l2: number): LearnedMethod<{ method: string; trained_on: number; w: number[] }> {
  const name = `priors_logit(l2=${l2})`;
  const dim = 2 * PRIORS.length + 1;
  return {
    name, learned: true, needs_group: false, description: name,
    train: (examples) => {
      const sets: ChoiceSet[] = [];
      for (const t of examples) {
        const chosen = contextOf(t.input).ordered.findIndex((e) => e.id === t.decisive_event_id);
        if (chosen >= 0) sets.push({ rows: priorRows(t.input), chosen });
      }
      return { method: name, trained_on: sets.length, w: Array.from(trainLogit(sets, dim, { l2, iterations: 250, rate: 0.05 })) };
    },
    rank: (model, input) => {
      const rows = priorRows(input);
      const p = softmax(rows.map((r) => r.idx.reduce((a, c, j) => a + model.w[c]! * r.val[j]!, 0)));
      return toRanking(name, contextOf(input).ordered.map((event, i) => ({ event, score: p[i]!, signals: {} })), "sum");
    },
  };
}

const pct = (x: number) => (100 * x).toFixed(1);
const cell = (s: BlameScores) => `${pct(s.agent.top1.value)} [${pct(s.agent.top1.low)}-${pct(s.agent.top1.high)}] | ${pct(s.step.top1.value)} [${pct(s.step.top1.low)}-${pct(s.step.top1.high)}] | ${pct(s.step.top3.value)}`;

async function fixed(seed: number, only?: string) {
  const which = only ?? "all";
  const hc = await loadWhoAndWhen("Hand-Crafted");
  const ag = (await loadWhoAndWhen("Algorithm-Generated")).filter((t) => !isHoldout(t.input.trace.trace_id));
  const union: LabelledTrace[] = [...hc, ...ag];
  const isAg = (i: number) => i >= hc.length;
  const groups = taskGroups(union);
  console.log(`runs: ${hc.length} HC + ${ag.length} AG (hold-out left out), ${new Set(groups).size} tasks, CV seed ${seed}; load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
  const methods: BlameMethod[] = [
    byName("learned_events"), byName("learned_stumps"), byName("errors"), byName("first_step"), byName("answer_origin"),
    single(1, "portable"), single(3, "portable"), single(10, "portable"),
    bagged(10, 0.1, "all"), bagged(10, 0.3, "portable"), bagMix(),
    priorsLogit(0.1), priorsLogit(1),
  ].filter((m) => which === "all" || m.name.startsWith(which) || ["learned_events", "errors"].includes(m.name));
  for (const m of methods) {
    const cpu = process.cpuUsage();
    const cv = rankingsOf(m, union, { ...DEFAULT_CV, seed, groups });
    const onAg = scoreRankings(scoredTraces(union, cv, isAg));
    const onHc = scoreRankings(scoredTraces(union, cv, (i) => !isAg(i)));
    const cross = (train: LabelledTrace[], test: LabelledTrace[]) => {
      const model = m.learned ? m.train(train) : null;
      return scoreRankings(test.map((t) => ({ ranking: m.learned ? m.rank(model!, t.input) : m.rank(t.input), decisive_event_id: t.decisive_event_id, decisive_agent: t.decisive_agent })));
    };
    const hcToAg = cross(hc, ag);
    const agToHc = cross(ag, hc);
    const used = process.cpuUsage(cpu);
    console.log(`${m.name.padEnd(28)} CVtask AG ${cell(onAg)} || CVtask HC ${cell(onHc)} || HC->AG ${cell(hcToAg)} || AG->HC ${cell(agToHc)} || ${((used.user + used.system) / 1e6).toFixed(1)} s CPU`);
  }
}
async function nested(extra: BlameMethod | null): Promise<void> {
  const hc = await loadWhoAndWhen("Hand-Crafted");
  const ag = (await loadWhoAndWhen("Algorithm-Generated")).filter((t) => !isHoldout(t.input.trace.trace_id));
  const union: LabelledTrace[] = [...hc, ...ag];
  const systems = union.map((_, i) => (i < hc.length ? "HC" : "AG"));
  const groups = taskGroups(union);
  const base = defaultFamilies()["best (nested)"]!;
  const candidates = extra ? [...base, extra] : base;
  const label = extra ? `best (nested) + ${extra.name}` : "best (nested)";
  console.log(`${label}: ${candidates.length} candidates; load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
  withTrainingCache(() => {
    let cpu = process.cpuUsage();
    const [r] = nestedRankings(union, { [label]: candidates }, { ...DEFAULT_CV, groups }, systems);
    const on = (sys: string) => scoreRankings(scoredTraces(union, r!.rankings, (i) => systems[i] === sys));
    let used = process.cpuUsage(cpu);
    console.log(`nested CV by task, ${label}: AG ${cell(on("AG"))} (kept ${r!.chosen.filter((c) => c.startsWith("AG")).join(", ")}) || HC ${cell(on("HC"))} (kept ${r!.chosen.filter((c) => c.startsWith("HC")).join(", ")}) || ${((used.user + used.system) / 1e6).toFixed(1)} s CPU`);
    cpu = process.cpuUsage();
    const toAg = fitPick(hc, hc.map(() => "HC"), "HC", candidates, { ...FIT_INNER_CV, groups: taskGroups(hc) });
    const toHc = fitPick(ag, ag.map(() => "AG"), "AG", candidates, { ...FIT_INNER_CV, groups: taskGroups(ag) });
    used = process.cpuUsage(cpu);
    console.log(`cross-system, ${label}: HC->AG ${cell(scoreFitted(toAg, ag))} (kept ${toAg.chosen}) || AG->HC ${cell(scoreFitted(toHc, hc))} (kept ${toHc.chosen}) || ${((used.user + used.system) / 1e6).toFixed(1)} s CPU; load ${readFileSync("/proc/loadavg", "utf8").trim()}`);
  });
}

export async function portableBench(part: string, seed: number, withBag = false): Promise<void> {
  // `nested`: best (nested) as registered, or (`--bag`) with the bagged portable logit among its candidates; `nested:mix`: with the mix
  if (part === "nested") return nested(withBag ? bagged(10, 0.3, "portable") : null);
  if (part === "nested:mix") return nested(bagMix());
  // `fixed:<prefix>`: only the methods whose name starts with it (and learned_events, errors beside them)
  return fixed(seed, part.startsWith("fixed:") ? part.slice(6) : undefined);
}
