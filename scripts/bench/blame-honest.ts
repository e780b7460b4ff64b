/**
 * `npm run bench:blame -- --honest [--json out.json]`: why nested CV on Who&When flatters `method=best`, and an
 * estimate that holds on runs never seen. Everything runs on the Who&When runs outside the hold-out
 * (lib/blame/holdout.ts: 20 Algorithm-Generated runs); each candidate estimate of Algorithm-Generated accuracy:
 *   - the Attribution page's nested CV (both subsets as one project, 5 outer folds by trace, a pick per system);
 *   - the same with folds by task (taskGroups: no question on both sides of a fold);
 *   - selection: the chosen method's CV score (what the page's method table shows for it) against nested CV;
 *   - file order: trained on every Hand-Crafted run and the earlier half of Algorithm-Generated, scored on the later half;
 *   - cross-system: trained on Hand-Crafted only;
 * then, last, the hold-out: the pick fit (by task-grouped inner CV) on every other run, scored once on the 20 runs,
 * beside the untrained priors.
 */
import { writeFile } from "node:fs/promises";
import { defaultFamilies, METHODS, nestedRankings, scoredTraces, scoreRankings, pickBest, rankingsOf, taskGroups, DEFAULT_CV, type BlameScores, type LabelledTrace } from "@/lib/blame";
import { evaluationOf } from "@/lib/blame/evaluate";
import { fitPick, scoreFitted, FIT_INNER_CV } from "@/lib/blame/honest";
import { HOLDOUT_FILES, HOLDOUT_RULE, isHoldout } from "@/lib/blame/holdout";
import { withTrainingCache } from "@/lib/blame/train-cache";
import { loadWhoAndWhen } from "../lib/who-and-when";

const pct = (x: number) => (100 * x).toFixed(1);
const cell = (s: { value: number; low: number; high: number }) => `${pct(s.value)} [${pct(s.low)}-${pct(s.high)}]`.padEnd(19);
const line = (name: string, s: BlameScores, note = "") => console.log([name.padEnd(52), String(s.n).padStart(3), cell(s.agent.top1), cell(s.step.top1), cell(s.step.top3), note].join(" "));
const HEAD = ["estimate of Algorithm-Generated accuracy".padEnd(52), "  n", "agent top-1 [95%]".padEnd(19), "step top-1 [95%]".padEnd(19), "step top-3 [95%]".padEnd(19)].join(" ");

const AG = "Algorithm-Generated";
const HC = "Hand-Crafted";
const fileNo = (t: LabelledTrace) => parseInt(t.input.trace.trace_id.replace(/^.*-/, ""), 10);

export async function honestBench(json?: string, parts: { diagnose: boolean; holdout: boolean } = { diagnose: true, holdout: true }): Promise<void> {
  const hcAll = await loadWhoAndWhen(HC);
  const agAll = await loadWhoAndWhen(AG);
  const out = withTrainingCache(() => run(hcAll, agAll, parts));
  if (json) await writeFile(json, JSON.stringify(out, null, 2));
}

function run(hcAll: LabelledTrace[], agAll: LabelledTrace[], parts: { diagnose: boolean; holdout: boolean }): Record<string, unknown> {
  const holdout = agAll.filter((t) => isHoldout(t.input.trace.trace_id));
  const ag = agAll.filter((t) => !isHoldout(t.input.trace.trace_id));
  const hc = hcAll;
  const union = [...hc, ...ag];
  const systems = union.map((_, i) => (i < hc.length ? HC : AG));
  const onAg = (i: number) => systems[i] === AG;
  const groups = taskGroups(union);
  const shared = new Set(taskGroups(hc).filter((g) => new Set(taskGroups(ag)).has(g)));
  const out: Record<string, unknown> = { holdout: { rule: HOLDOUT_RULE, files: HOLDOUT_FILES } };
  console.log(`\nWho&When without the hold-out: ${hc.length} ${HC}, ${ag.length} ${AG} runs (hold-out: ${holdout.length} ${AG} runs, ${HOLDOUT_RULE})`);
  console.log(`tasks: ${new Set(groups).size} distinct of ${union.length} runs; ${shared.size} questions appear in both subsets, none twice within one`);
  const t0 = performance.now();
  const families = defaultFamilies();
  const candidates = families["best (nested)"]!;
  if (parts.diagnose) diagnose();
  if (parts.holdout) scoreHoldout();
  return out;

  function diagnose() {
    console.log(HEAD);
    const keep = ["best (nested)", "learned_events (tuned)"];
    const fams = Object.fromEntries(Object.entries(families).filter(([f]) => keep.includes(f)));
    const nestedOn = (label: string, opts: { groups?: string[] }) => {
      const ranked = nestedRankings(union, fams, { ...DEFAULT_CV, ...opts }, systems);
      const res = ranked.map(({ family, rankings, chosen }) => ({ family, scores: scoreRankings(scoredTraces(union, rankings, onAg)), chosen: chosen.filter((c) => c.startsWith(AG)) }));
      for (const r of res) line(`${label}: ${r.family}`, r.scores, `(${((performance.now() - t0) / 1000).toFixed(0)} s)`);
      return res;
    };
    out.page_nested = nestedOn("nested CV by trace (the page)", {});
    out.grouped_nested = nestedOn("nested CV by task", { groups });
    // selection: the CV score of every method (the page's table), the best of them on AG, against nested
    const ranked = METHODS.map((m) => ({ m, r: rankingsOf(m, union, DEFAULT_CV) }));
    const onAgEval = ranked.map(({ m, r }) => evaluationOf(m, union, [r], null, onAg));
    const best = pickBest(onAgEval)!;
    const bestEval = onAgEval.find((e) => e.method === best)!;
    line(`selection: ${best}, CV score of the chosen (table)`, bestEval.scores!, "chosen on the runs it scores");
    const groupedEval = METHODS.map((m) => evaluationOf(m, union, [rankingsOf(m, union, { ...DEFAULT_CV, groups })], null, onAg));
    line(`selection: ${best}, CV by task`, groupedEval.find((e) => e.method === best)!.scores!);
    out.selection = { best, cv_by_trace: bestEval.scores, top5: [...onAgEval].filter((e) => e.scores).sort((a, b) => b.scores!.step.top1.value - a.scores!.step.top1.value).slice(0, 5).map((e) => ({ method: e.method, step: e.scores!.step.top1.value, agent: e.scores!.agent.top1.value })) };
    // file order: trained on earlier runs, scored on later ones
    const sorted = [...ag].sort((a, b) => fileNo(a) - fileNo(b));
    const earlier = sorted.slice(0, sorted.length / 2);
    const later = sorted.slice(sorted.length / 2);
    const orderTrain = [...hc, ...earlier];
    const orderSystems = orderTrain.map((_, i) => (i < hc.length ? HC : AG));
    const ordered = fitPick(orderTrain, orderSystems, AG, candidates, { ...FIT_INNER_CV, groups: taskGroups(orderTrain) });
    const orderedScores = scoreFitted(ordered, later);
    line(`file order: earlier ${earlier.length} AG + HC -> later ${later.length} AG`, orderedScores, `kept ${ordered.chosen} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    // cross-system: Hand-Crafted only
    const cross = fitPick(hc, hc.map(() => HC), HC, candidates, { ...FIT_INNER_CV, groups: taskGroups(hc) });
    const crossScores = scoreFitted(cross, ag);
    line(`cross-system: ${HC} -> ${ag.length} AG`, crossScores, `kept ${cross.chosen}`);
    out.ordered = { chosen: ordered.chosen, scores: orderedScores };
    out.cross_system = { chosen: cross.chosen, scores: crossScores };
  }

  // last: the hold-out, scored once
  function scoreHoldout() {
    const cross = fitPick(hc, hc.map(() => HC), HC, candidates, { ...FIT_INNER_CV, groups: taskGroups(hc) });
    console.log(`\nhold-out (${holdout.length} ${AG} runs, never seen before this line):`);
    console.log(HEAD);
    const fitted = fitPick(union, systems, AG, candidates, { ...FIT_INNER_CV, groups });
    const held = scoreFitted(fitted, holdout);
    line("best, fit on every other run (inner CV by task)", held, `kept ${fitted.chosen}`);
    const crossHeld = scoreFitted(cross, holdout);
    line(`best, fit on ${HC} only`, crossHeld, `kept ${cross.chosen}`);
    const priors: Record<string, BlameScores> = {};
    for (const name of ["random", "first_step", "errors"]) {
      const m = METHODS.find((x) => x.name === name)!;
      if (m.learned) continue;
      priors[name] = scoreRankings(holdout.map((t) => ({ ranking: m.rank(t.input), decisive_event_id: t.decisive_event_id, decisive_agent: t.decisive_agent })));
      line(name, priors[name], "untrained prior");
  }
  out.holdout_scores = { best: { chosen: fitted.chosen, scores: held }, cross_system: crossHeld, priors };
  console.log(`(${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  }
}
