import type { ObjectMetadataTrace } from "../trace/types";
import { withModelCalls } from "./calls";
import { failedCodingTrace } from "./scenarios/failed-coding";
import { hackingPatternTraces } from "./scenarios/hacking-patterns";
import { parallelResearchTrace } from "./scenarios/parallel-research";
import { redundantDebateTrace } from "./scenarios/redundant-debate";
import { sqlRolloutGroup } from "./scenarios/sql-rollout-group";

/**
 * The traces a user sees on first start: one per scenario (a)-(c), the
 * four rollouts of scenario (d) and the two reward-hacking runs of (e), each with its model calls (calls.ts).
 * Deterministic: every call returns equal, freshly built objects (callers may mutate them).
 */
export function demoTraces(): ObjectMetadataTrace[] {
  return [parallelResearchTrace(), failedCodingTrace(), redundantDebateTrace(), ...sqlRolloutGroup(), ...hackingPatternTraces()].map(withModelCalls);
}
