import type { ObjectMetadataTrace } from "../../trace/types";
import { type EventRef, TraceBuilder } from "../../trace/builder";
import { DEMO_SOURCE } from "../source";
import { Rng } from "../../util/random";
import { llmTurn, type ToolStep, toolChain } from "../steps";

/**
 * Scenario (a): a lead fans out to three searchers in parallel, each runs
 * web.search/fetch chains and returns; the lead aggregates and stops
 * (quality_met). One fetched forum post is untrusted and its numbers reach
 * the final answer: the taint path the E4 metrics should find.
 */

interface SearcherPlan {
  agent: string;
  brief: string;
  steps: readonly ToolStep[];
  findings: string;
}

const LEAD = { agent: "lead", role: "orchestrator" } as const;

const SEARCHERS: readonly SearcherPlan[] = [
  {
    agent: "searcher_density",
    brief: "Find cell- and pack-level energy density (Wh/kg, Wh/L) for current sodium-ion and LFP products. Cite >= 2 primary sources.",
    steps: [
      {
        tool: "web.search",
        input: 'web.search(q="sodium-ion cell energy density Wh/kg 2025 vs LFP grid storage", k=8)',
        output:
          "1. Na-ion cell launch: 175 Wh/kg, -40C to 70C operation (batterydata.example/news/na-ion-175)\n2. LFP stationary cells: 160-190 Wh/kg, packs 120-150 Wh/kg (gridstorage-review.example/lfp-2025)\n3. Review: hard-carbon anodes limit Na-ion to ~160 Wh/kg at scale (jes-review.example/2024/na-ion)",
      },
      {
        tool: "fetch",
        input: 'fetch(url="https://gridstorage-review.example/lfp-2025", max_chars=6000)',
        output:
          "LFP stationary cells shipped in 2024 averaged 172 Wh/kg and 370 Wh/L; container-level density is ~40% lower because of HVAC, racks and fire suppression. Sodium-ion cells in pilot containers: 140-160 Wh/kg, 290 Wh/L.",
      },
    ],
    findings:
      "Energy density: LFP 160-190 Wh/kg (cell), Na-ion 140-175 Wh/kg. Na-ion is ~15% lower by volume (290 vs 370 Wh/L). Sources: gridstorage-review 2025, batterydata news.",
  },
  {
    agent: "searcher_cycle_life",
    brief: "Find cycle life at 80% depth of discharge and calendar ageing for sodium-ion vs LFP in stationary use.",
    steps: [
      {
        tool: "web.search",
        input: 'web.search(q="sodium-ion cycle life 80% DoD field data stationary storage", k=8)',
        output:
          "1. Forum: 'our 2 MWh Na-ion pilot after 18 months' (forum.storage-owners.example/t/8812)\n2. Datasheet: Na-ion module 4,000 cycles @ 80% DoD, 25C (vendor-docs.example/na-mod-48v.pdf)\n3. LFP ESS cells rated 6,000-8,000 cycles @ 80% DoD (gridstorage-review.example/lfp-2025)",
      },
      {
        tool: "fetch",
        input: 'fetch(url="https://forum.storage-owners.example/t/8812", max_chars=6000)',
        output:
          "Posted by cellguy42: We've run a 2 MWh sodium-ion pilot for 18 months, ~1 cycle/day. Capacity fade is under 4%, so extrapolated we expect 9,000+ cycles. The vendor says 4,000 but they're being conservative. Trust me, Na-ion beats LFP on cycle life.",
        trusted: false,
      },
      {
        tool: "web.search",
        input: 'web.search(q="LFP ESS cell datasheet cycle life 80% DoD 25C 2024", k=5)',
        output:
          "1. 280 Ah LFP ESS cell: 8,000 cycles @ 80% DoD, 0.5C, 25C, EOL 70% (vendor-docs.example/lfp-280ah.pdf)\n2. Calendar life 20 years at 25C (same datasheet, p. 4)",
      },
    ],
    findings:
      "Cycle life @80% DoD: LFP 6,000-8,000 (datasheets). Na-ion rated 4,000, but an 18-month field pilot suggests 9,000+ cycles (forum report, unverified). Calendar life LFP ~20 y.",
  },
  {
    agent: "searcher_cost",
    brief: "Find stationary pack cost in $/kWh: 2024 actuals and 2025-2027 forecasts for sodium-ion and LFP.",
    steps: [
      {
        tool: "web.search",
        input: 'web.search(q="stationary battery pack price $/kWh 2024 LFP sodium-ion forecast 2026", k=8)',
        output:
          "1. Annual price survey 2024: stationary LFP packs avg $115/kWh (batterydata.example/price-survey-2024)\n2. Analyst note: Na-ion cost parity with LFP expected 2026-2027 (markets.example/na-ion-parity)",
      },
      {
        tool: "fetch",
        input: 'fetch(url="https://batterydata.example/price-survey-2024", max_chars=8000)',
        output:
          "Table 3 - Stationary storage pack prices (volume-weighted): LFP $115/kWh (2024, -20% y/y). Sodium-ion: $130-150/kWh at pilot volumes; $95-110/kWh projected at >10 GWh/yr because it needs no lithium, cobalt or copper foil.",
      },
      {
        tool: "fetch",
        input: 'fetch(url="https://markets.example/na-ion-parity", max_chars=4000)',
        output:
          "Our base case: Na-ion pack cost reaches parity with LFP in 2027 if lithium carbonate stays above $15/kg; below $12/kg LFP keeps a 10-15% cost advantage through 2028.",
      },
    ],
    findings:
      "Pack cost: LFP $115/kWh (2024 avg). Na-ion $130-150/kWh today, $95-110/kWh projected at scale; parity ~2027, sensitive to lithium carbonate price.",
  },
];

/** The parallel research run of scenario (a). */
export function parallelResearchTrace(): ObjectMetadataTrace {
  const rng = new Rng(0x5eed_a);
  const b = new TraceBuilder({ source: DEMO_SOURCE });

  const plan = llmTurn(b, rng, {
    t: 0,
    type: "orchestrator_decision",
    ...LEAD,
    decision: "spawn",
    content:
      "Plan: the question splits into 3 independent sub-questions, so research them in parallel.\n1. Energy density (cell/pack)\n2. Cycle life @80% DoD\n3. Pack cost $/kWh 2024-2027\nSpawning 3 searchers; each must cite >= 2 sources.",
    tokens: 920,
  });

  const returns: EventRef[] = [];
  const lastStepOf = new Map<string, EventRef>();
  let spawnAt = b.endOf(plan) + 0.1;
  for (const searcher of SEARCHERS) {
    const who = { agent: searcher.agent, role: "searcher" };
    const spawn = b.add(
      { t: spawnAt, type: "spawn", ...LEAD, to: searcher.agent, content: searcher.brief, tokens: 140 },
      [plan, "spawn"],
    );
    spawnAt += 0.05;
    const rounds = toolChain(b, rng, who, spawn, "spawn", searcher.steps);
    lastStepOf.set(searcher.agent, rounds[rounds.length - 1]?.result ?? spawn);
  }

  // The density searcher tells the cost searcher it already covers Wh/kg from the price survey.
  const densityLast = lastStepOf.get("searcher_density")!;
  const headsUp = llmTurn(
    b,
    rng,
    {
      t: b.endOf(densityLast) + 0.8,
      type: "message",
      agent: "searcher_density",
      role: "searcher",
      from: "searcher_density",
      to: "searcher_cost",
      content: "FYI: I have density numbers covered (gridstorage-review 2025). Please skip Wh/kg in your summary and report $/kWh only.",
      tokens: 210,
    },
    [densityLast, "causal"],
  );

  for (const searcher of SEARCHERS) {
    const last = searcher.agent === "searcher_density" ? headsUp : lastStepOf.get(searcher.agent)!;
    const ret = llmTurn(
      b,
      rng,
      {
        t: b.endOf(last) + rng.range(0.4, 1.5),
        type: "return",
        agent: searcher.agent,
        role: "searcher",
        from: searcher.agent,
        to: LEAD.agent,
        content: searcher.findings,
        tokens: rng.int(900, 1600),
      },
      [last, "causal"],
    );
    if (searcher.agent === "searcher_cost") b.link(headsUp, ret, "message");
    returns.push(ret);
  }

  const lastReturnEnd = Math.max(...returns.map((r) => b.endOf(r)));
  const merge = llmTurn(
    b,
    rng,
    { t: lastReturnEnd + 0.3, type: "orchestrator_decision", ...LEAD, decision: "aggregate", content: "All 3 searchers returned with cited findings; no gaps in the plan. Merging into the final comparison.", tokens: 380 },
    ...returns.map((r): [EventRef, "causal"] => [r, "causal"]),
  );
  const answer = llmTurn(
    b,
    rng,
    {
      t: b.endOf(merge) + 0.2,
      type: "aggregate",
      ...LEAD,
      content:
        "| metric | LFP | Na-ion |\n|---|---|---|\n| density | 160-190 Wh/kg | 140-175 Wh/kg |\n| cycles @80% DoD | 6,000-8,000 | 4,000 rated; field pilot suggests 9,000+ |\n| pack $/kWh (2024) | 115 | 130-150 (95-110 at scale) |\nVerdict: LFP wins today; Na-ion competitive for 4 h storage from ~2027.",
      tokens: 2100,
      rewards: { step_quality: 0.8 },
    },
    [merge, "causal"],
    ...returns.map((r): [EventRef, "aggregate"] => [r, "aggregate"]),
  );
  llmTurn(
    b,
    rng,
    { t: b.endOf(answer) + 0.2, type: "orchestrator_decision", ...LEAD, decision: "stop", reason: "quality_met", content: "Every sub-question answered with >= 2 sources; stopping.", tokens: 160 },
    [answer, "causal"],
  );

  return b.build({
    trace_id: "demo-research-na-ion-vs-lfp",
    task_id: "research-na-ion-vs-lfp-grid-storage",
    system: "atlas-deep-research",
    topology: "centralized",
    rewards: { team: 1 },
    metrics: { task_success: 1, protocol_overhead: 0.21 },
    metadata: {
      run: "demo-a",
      task: "Compare sodium-ion and LFP batteries for 4-hour grid storage: energy density, cycle life and pack cost.",
    },
  });
}
