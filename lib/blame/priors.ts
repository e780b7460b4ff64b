/**
 * Structural and positional priors: where decisive errors tend to sit
 * whatever the content says. Each is a baseline a useful method must beat.
 */
import { contextOf } from "./input";
import { agentKey, isHuman, toRanking } from "./rank";
import type { BlameInput, BlameRanking } from "./types";

export { isHuman };

/** `first_step`: the earlier a step after the task, the more blame; agents by their earliest step. */
export function rankFirstStep(input: BlameInput): BlameRanking {
  const { ordered } = contextOf(input);
  let j = 0;
  const scored = ordered.map((event) => {
    const score = isHuman(event) ? 0 : 1 / (1 + j++);
    return { event, score, signals: { steps_since_task: isHuman(event) ? -1 : j - 1 } };
  });
  return toRanking("first_step", scored, "max");
}

/** `last_event`: the later, the more blame (the terminal answer is wrong). */
export function rankLastEvent(input: BlameInput): BlameRanking {
  const { ordered } = contextOf(input);
  const n = ordered.length;
  const scored = ordered.map((event, k) => ({ event, score: (k + 1) / n, signals: { relative_position: (k + 1) / n } }));
  return toRanking("last_event", scored, "max");
}

/** `most_active_agent`: the agent with the largest share of the non-human steps; its events tie. */
export function rankMostActive(input: BlameInput): BlameRanking {
  const { ordered } = contextOf(input);
  const suspects = ordered.filter((e) => !isHuman(e));
  const share = new Map<string, number>();
  for (const e of suspects) share.set(agentKey(e.agent), (share.get(agentKey(e.agent)) ?? 0) + 1 / suspects.length);
  const scored = ordered.map((event) => {
    const s = isHuman(event) ? 0 : share.get(agentKey(event.agent))!;
    return { event, score: s, signals: { agent_share: s } };
  });
  return toRanking("most_active_agent", scored, "max");
}

/** `random`: everything ties, so every score is the expected score of a uniformly random pick (agents: the non-human ones). */
export function rankRandom(input: BlameInput): BlameRanking {
  const { ordered } = contextOf(input);
  const scored = ordered.map((event) => ({ event, score: isHuman(event) ? -1 : 0, signals: {} }));
  return toRanking("random", scored, "max");
}
