/** The group view's data (`GET /api/groups/{group_id}`), built by lib/server/decisions/group.ts. */
import type { Clock } from "../format";
import type { SpecVersion } from "../metrics/types";
import type { RTotalPart } from "../rewards/breakdown";
import type { SuccessRate } from "../stats/wilson";
import type { EventType } from "../trace/types";
import type { ChoiceContrast } from "./choices";
import type { Divergence } from "./divergence";

export interface GroupEvent {
  id: string;
  /** Event order index. */
  step: number;
  t: number;
  t_end: number | null;
  type: EventType;
  agent: string;
  role: string | null;
  /** The GiGPO key as people read it: role · type · ref. */
  key: string;
  status: string | null;
}

export interface GroupRollout {
  trace_id: string;
  task_id: string;
  system: string | null;
  project: string;
  policy_version: string | null;
  e1: 0 | 1 | null;
  r_total: number;
  /** what each family adds to R_total (w_f x R_f under the preset) */
  r_total_parts: RTotalPart[];
  /** GRPO advantage: (R_total - mean) / (population std + 1e-6) over the rollouts shown; null below 2. */
  advantage: number | null;
  /** Earliest t, so that lanes share one axis of time since each rollout's start. */
  start: number;
  choices: string[];
  events: GroupEvent[];
}

export interface GroupView {
  version: SpecVersion;
  group_id: string;
  preset: string;
  /** The clock of the lanes' axis: steps when every rollout shown is on the step clock (metadata.clock = "step_index"), else seconds. */
  clock: Clock;
  /** Rollouts in the group that the caller may read, and how many are shown. */
  rollouts_total: number;
  e1: SuccessRate;
  rollouts: GroupRollout[];
  divergence: Divergence | null;
  decisions: ChoiceContrast;
}

