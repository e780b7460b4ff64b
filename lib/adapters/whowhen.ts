import { z } from "zod";
import { AdaptedTraceBuilder, slug } from "./emit";
import { provenanceOf, stem } from "./provenance";
import { AdapterInputError, type AdaptedTrace } from "./types";
import { isMagenticOne, mapGroupChat, mapMagenticOne, type MappedStep } from "./whowhen-steps";
import { zodDetails } from "./zod-details";

/**
 * Who&When (ICML 2025 failure attribution): one failed run per file, with
 * the agent and the step that caused the failure. The labels are kept so
 * that a UI can mark them as ground truth:
 * - `metadata.ground_truth`: the mistake agent, step (a number), reason and
 *   the id of the event that step became, with who spoke that step;
 * - the event itself carries `mistake: true`; every event carries `step`;
 * - `metadata.labels`: the dataset's own fields, verbatim.
 * Every run in the dataset failed (it collects failure logs; `is_correct` /
 * `is_corrected` are false in all 138 files), so the reported
 * `metrics.task_success` is 0 (E1 = 0) and the `task_success` reward is -1,
 * the value SPEC.md section 2 gives a failure label (2 x 0 - 1).
 * No model calls (SPEC.md section 6: a call is what the model saw, nothing
 * reconstructed): a Magentic-One file is the orchestrator's transcript,
 * without the ledger and planning prompts or the surfers' page states its
 * models were sent; a CaptainAgent file's `history` is the initiating
 * expert's own message list (its turns `assistant`, the others `user` with
 * `name`), but the system message that expert's model received (AG2's
 * group-chat instruction naming the members, wrapping the profile that
 * `system_prompt` holds) is not in the file. See docs/adapters.md.
 */

const turnSchema = z.object({ role: z.string(), name: z.string().optional(), content: z.string().nullable() });

export const whoWhenSchema = z.looseObject({
  history: z.array(turnSchema).min(1, "the history is empty"),
  question: z.string(),
  ground_truth: z.unknown(),
  mistake_agent: z.string(),
  mistake_step: z.union([z.string().regex(/^\s*\d+\s*$/, "must be a step number"), z.number().int().min(0)]),
  mistake_reason: z.string(),
});

export type WhoWhenRun = z.infer<typeof whoWhenSchema>;

/** The imported annotator under which a run's labelled mistake is stored as its decisive error. */
export const WHO_AND_WHEN_ANNOTATOR = "Who&When ground truth";

/** Keys kept verbatim in metadata.labels (the history becomes the events). */
const LABEL_KEYS = ["question", "ground_truth", "question_ID", "level", "is_correct", "is_corrected", "mistake_agent", "mistake_step", "mistake_reason", "mistake_type", "labels"];

export function adaptWhoWhen(raw: unknown, path: string): AdaptedTrace {
  const parsed = whoWhenSchema.safeParse(raw);
  if (!parsed.success) throw new AdapterInputError("whowhen", path, zodDetails(parsed.error));
  const run = parsed.data;
  const history = run.history.map((t) => ({ role: t.role, name: t.name, content: t.content ?? "" }));
  const mistakeStep = Number(run.mistake_step);
  if (mistakeStep >= history.length) {
    throw new AdapterInputError("whowhen", path, [`$.mistake_step: step ${mistakeStep} is past the end of the history (${history.length} steps)`]);
  }

  const magentic = isMagenticOne(history);
  const b = new AdaptedTraceBuilder();
  const steps = magentic ? mapMagenticOne(b, history) : mapGroupChat(b, history);
  const mistake = steps[mistakeStep]!;
  b.annotate(mistake.ref, { mistake: true, mistake_agent: run.mistake_agent, mistake_reason: run.mistake_reason });

  const source = provenanceOf(path, "whowhen", "Who&When");
  const trace = b.build(
    {
      trace_id: whoWhenTraceId(run, path),
      task_id: typeof run.question_ID === "string" && run.question_ID !== "" ? run.question_ID : `whowhen-${slug(stem(path))}`,
      system: magentic ? "Magentic-One" : "CaptainAgent (AG2)",
      topology: magentic ? "centralized" : "mixed",
      rewards: { task_success: -1 },
      metrics: { task_success: 0 },
      metadata: {
        source,
        ...(magentic ? {} : { topology_detail: "group_chat" }),
        labels: pick(run, LABEL_KEYS),
        ...(run.system_prompt !== undefined ? { system_prompt: run.system_prompt } : {}),
      },
    },
    { clock: "step_index" },
  );
  trace.metadata = { ...trace.metadata, ground_truth: groundTruth(run, mistakeStep, mistake, b.idOf(mistake.ref)) };
  // the dataset's label is the run's decisive error (SPEC.md section 5), named as the dataset names it
  trace.decisive_errors = [{ event_id: b.idOf(mistake.ref), agent: run.mistake_agent.trim(), reason: run.mistake_reason, annotator: WHO_AND_WHEN_ANNOTATOR }];
  return trace;
}

/**
 * The subset a run comes from, read from its content (not its folder, which an
 * upload does not have): Hand-Crafted runs carry `is_corrected`, the
 * Algorithm-Generated ones `is_correct` and a `system_prompt`. So one file gets
 * one id through upload, CLI and API, and `Hand-Crafted/11.json` never meets
 * `Algorithm-Generated/11.json`.
 */
export function whoWhenSubset(run: WhoWhenRun): "hand-crafted" | "algorithm-generated" {
  return run.system_prompt !== undefined || run.is_correct !== undefined ? "algorithm-generated" : "hand-crafted";
}

/** `whowhen-<subset>-<file stem>`, e.g. `whowhen-hand-crafted-46`. */
export function whoWhenTraceId(run: WhoWhenRun, path: string): string {
  return `whowhen-${whoWhenSubset(run)}-${slug(stem(path))}`;
}

/**
 * The label resolved against the mapped events. `label_matches_speaker`
 * compares names case-insensitively (the dataset spells WebSurfer two ways);
 * when it is false the label names another agent than the one who spoke the
 * step (label noise, listed in docs/adapters.md), or, for an orchestrator
 * instruction, the agent it was addressed to (`label_matches_addressee`).
 */
function groundTruth(run: WhoWhenRun, step: number, mapped: MappedStep, eventId: string) {
  const label = run.mistake_agent.trim().toLowerCase();
  return {
    mistake_agent: run.mistake_agent,
    mistake_step: step,
    mistake_reason: run.mistake_reason,
    mistake_event_id: eventId,
    step_speaker: mapped.speaker,
    step_addressee: mapped.addressee,
    label_matches_speaker: mapped.speaker.toLowerCase() === label,
    label_matches_addressee: mapped.addressee !== null && mapped.addressee.toLowerCase() === label,
  };
}

function pick(run: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (run[key] !== undefined) out[key] = run[key];
  return out;
}
