import type { EdgeType, ObjectMetadataTrace } from "../../trace/types";
import { type EventRef, TraceBuilder } from "../../trace/builder";
import { DEMO_SOURCE } from "../source";
import { Rng } from "../../util/random";
import { llmTurn, toolRound } from "../steps";

/**
 * Scenario (c): a moderated debate that reaches a good answer wastefully.
 * Advocate and skeptic repeat themselves (the same text modulo case and
 * whitespace), some messages influence nothing (dead messages), and both
 * keep working after the moderator's final aggregate and stop decision:
 * the "late" stop verdict, with redundancy and dead-message rates > 0.
 */

const MODERATOR = { agent: "moderator", role: "orchestrator" } as const;
const ADVOCATE = { agent: "advocate", role: "proponent" } as const;
const SKEPTIC = { agent: "skeptic", role: "critic" } as const;

const ADVOCATE_CLAIM = "Webhooks remove the 30 s polling delay and cut API calls to the billing provider by ~95%.";
const SKEPTIC_CLAIM = "Webhooks are at-least-once and unordered: we need idempotency keys, an ordering guard and a reconciliation job anyway.";

/** The redundant, late-stopping debate of scenario (c). */
export function redundantDebateTrace(): ObjectMetadataTrace {
  const rng = new Rng(0x5eed_c);
  const b = new TraceBuilder({ source: DEMO_SOURCE });
  const say = (who: { agent: string; role: string }, to: string, t: number, content: string, ...parents: [EventRef, EdgeType][]) =>
    llmTurn(b, rng, { t, type: "message", ...who, from: who.agent, to, content, tokens: rng.int(180, 520) }, ...parents);

  const open = llmTurn(b, rng, {
    t: 0,
    type: "orchestrator_decision",
    ...MODERATOR,
    decision: "spawn",
    content: "Question: should billing-sync move from 30 s REST polling to provider webhooks? Spawning an advocate and a skeptic for a two-sided review.",
    tokens: 560,
  });
  const spawnAdvocate = b.add({ t: b.endOf(open) + 0.1, type: "spawn", ...MODERATOR, to: ADVOCATE.agent, content: "Argue for the webhook migration.", tokens: 90 }, [open, "spawn"]);
  const spawnSkeptic = b.add({ t: b.endOf(open) + 0.15, type: "spawn", ...MODERATOR, to: SKEPTIC.agent, content: "Argue against it; find the operational risks.", tokens: 90 }, [open, "spawn"]);
  const ask = llmTurn(
    b,
    rng,
    { t: b.timeOf(spawnSkeptic) + 0.3, type: "orchestrator_decision", ...MODERATOR, decision: "communicate", content: "Round 1: each side gives its strongest argument in at most 3 bullet points, addressed to the other side.", tokens: 240 },
    [open, "causal"],
  );

  const claim = say(ADVOCATE, SKEPTIC.agent, b.endOf(ask) + 0.4, ADVOCATE_CLAIM, [ask, "message"], [spawnAdvocate, "causal"]);
  const lookup = toolRound(
    b,
    rng,
    SKEPTIC,
    b.endOf(ask) + 0.6,
    {
      tool: "docs.search",
      input: 'docs.search(site="billing-provider docs", q="webhook delivery guarantees retries ordering")',
      output: "Webhook events are delivered at least once. Failed deliveries are retried with exponential backoff for up to 3 days. Events are not guaranteed to arrive in the order they were created.",
    },
    [ask, "message"],
    [spawnSkeptic, "causal"],
  );
  const rebuttal = say(SKEPTIC, ADVOCATE.agent, Math.max(b.endOf(claim), b.timeOf(lookup.result)) + 0.5, SKEPTIC_CLAIM, [lookup.result, "causal"], [claim, "message"]);

  // Round 2 repeats round 1: the advocate restates its claim (lower case, a double space), nobody uses it.
  const repeatedClaim = say(ADVOCATE, SKEPTIC.agent, b.endOf(rebuttal) + 0.3, "webhooks remove the 30 s  polling delay and cut API calls to the billing provider by ~95%.", [rebuttal, "message"]);
  say(SKEPTIC, ADVOCATE.agent, b.endOf(repeatedClaim) + 0.3, "Acknowledged, noted.", [repeatedClaim, "message"]);
  const concession = say(ADVOCATE, MODERATOR.agent, b.endOf(repeatedClaim) + 2.1, "Agreed on the risks: key on the provider's event id for idempotency and keep the nightly reconciliation job for 30 days.", [rebuttal, "message"]);
  const restated = say(SKEPTIC, MODERATOR.agent, b.endOf(concession) + 0.2, SKEPTIC_CLAIM.replace("Webhooks are", "WEBHOOKS are").replace(", an ordering", ",\nan ordering"), [rebuttal, "causal"]);

  const verdict = llmTurn(
    b,
    rng,
    {
      t: b.endOf(restated) + 0.5,
      type: "aggregate",
      ...MODERATOR,
      content: "Recommendation: migrate to webhooks behind a feature flag. Idempotency on event id, ordering guard on invoice version, nightly reconciliation for 30 days, then retire the polling cron.",
      tokens: 1450,
    },
    [concession, "aggregate"],
    [restated, "aggregate"],
  );
  const stop = llmTurn(
    b,
    rng,
    { t: b.endOf(verdict) + 0.2, type: "orchestrator_decision", ...MODERATOR, decision: "stop", reason: "complete", content: "Both sides converged; recommendation written. Stopping the debate.", tokens: 120 },
    [verdict, "causal"],
  );

  // Neither debater hears the stop in time: they keep working after it.
  const afterthought = say(ADVOCATE, MODERATOR.agent, b.timeOf(stop) + 0.4, "One more point: webhooks also let us delete the polling cron and its 2 pods.", [concession, "causal"]);
  const extraLookup = toolRound(
    b,
    rng,
    SKEPTIC,
    b.timeOf(stop) + 0.7,
    { tool: "docs.search", input: 'docs.search(site="billing-provider docs", q="webhook signature verification")', output: "Each webhook carries a Billing-Signature header: HMAC-SHA256 of the raw body with your endpoint secret. Reject events older than 5 minutes." },
    [restated, "causal"],
  );
  const postscript = say(SKEPTIC, MODERATOR.agent, b.endOf(extraLookup.result) + 0.4, "Also: verify the HMAC signature and reject events older than 5 minutes.", [extraLookup.result, "causal"]);
  const lastWord = Math.max(b.endOf(afterthought), b.endOf(postscript)) + 1.5;
  b.add({ t: lastWord, type: "despawn", ...MODERATOR, to: ADVOCATE.agent, tokens: 0 }, [stop, "causal"]);
  b.add({ t: lastWord + 0.05, type: "despawn", ...MODERATOR, to: SKEPTIC.agent, tokens: 0 }, [stop, "causal"]);

  return b.build({
    trace_id: "demo-debate-webhooks-late-stop",
    task_id: "design-review-billing-webhooks",
    system: "roundtable-debate",
    topology: "debate",
    rewards: { team: 1 },
    metadata: { run: "demo-c", task: "Should billing-sync move from 30 s REST polling to provider webhooks?" },
  });
}
