/**
 * The values an annotator can choose for a field, in key order (keys 1-9,
 * as Langfuse and Label Studio number options). Key 1 is always the worst
 * outcome and the last key the best, whatever the stored number:
 *
 * - trace-level task_success is 0/1 (SPEC.md section 5): 1 = fail (0),
 *   2 = success (1); there is no third option, so no key can mean
 *   "failure" by accident.
 * - cost is a penalty: its value says how costly the unit was (+1 =
 *   wasteful, -1 = cheap), the same direction as the automatic
 *   R_cost = tokens / budget, and it enters credit multiplied by the
 *   preset's cost weight (negative in every built-in preset), so a
 *   wasteful label lowers credit. Key 1 is therefore "wasteful (+1)".
 * - every other family: -1 (worst) .. +1 (best).
 */
export interface LabelOption {
  /** the key that chooses it, "1".."9" */
  key: string;
  value: number;
  /** how the option reads on the button */
  text: string;
}

const SCALE = [-1, -0.5, 0, 0.5, 1] as const;
const SIGNED = (v: number) => (v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0");

export function labelOptions(family: string, unit: "event" | "trace"): LabelOption[] {
  if (family === "task_success" && unit === "trace") {
    return [
      { key: "1", value: 0, text: "fail" },
      { key: "2", value: 1, text: "success" },
    ];
  }
  if (family === "cost") {
    const words: Record<string, string> = { "1": "wasteful", "-1": "cheap", "0": "as expected" };
    return [...SCALE].reverse().map((value, i) => ({ key: String(i + 1), value, text: `${words[String(value)] ?? ""} ${SIGNED(value)}`.trim() }));
  }
  const words: Record<string, string> = { "-1": "bad", "0": "neutral", "1": "good" };
  return SCALE.map((value, i) => ({ key: String(i + 1), value, text: `${words[String(value)] ?? ""} ${SIGNED(value)}`.trim() }));
}

/** The option a key chooses for a field, or null (e.g. key 3 on trace-level task_success). */
export function optionForKey(family: string, unit: "event" | "trace", key: string): LabelOption | null {
  return labelOptions(family, unit).find((o) => o.key === key) ?? null;
}

/** How a stored value reads for a field ("success" rather than 1, "wasteful +1" rather than 1). */
export function valueText(family: string, unit: "event" | "trace", value: number): string {
  const option = labelOptions(family, unit).find((o) => o.value === value);
  return option ? option.text : SIGNED(Math.round(value * 1000) / 1000);
}

/** One line on how a label of this family enters credit under a weight (shown beside the keys). */
export function creditEffect(family: string, weight: number): string {
  if (family === "cost") {
    return `credit += ${weight} × value: with this weight a wasteful (+1) label ${weight < 0 ? "lowers" : weight > 0 ? "raises" : "does not change"} credit`;
  }
  if (family === "task_success") return `trace value R = 2 × mean − 1 (fail → −1, success → +1), spread backward with decay 0.7, × weight ${weight}`;
  return `credit += ${weight} × value`;
}
