/**
 * A run's task definition, what a grader (person or judge) needs before the
 * run itself: the instruction that defines success, the reference answer,
 * and the policy or system prompt the agents worked under. Read from one
 * place, `metadata.task_definition` ({instruction?, reference?, policy?}:
 * settable on any JSON import), else from where each adapter keeps them
 * (tau-bench: labels.task.instruction, labels.task.outputs, system_prompt;
 * Who&When: labels.question, labels.ground_truth, system_prompt), else from
 * the usual metadata keys (task, question, query, instruction, prompt).
 */
export interface DefinitionPart {
  text: string;
  /** where it was read, e.g. `metadata.labels.task.instruction` */
  source: string;
}

export interface TaskDefinition {
  instruction: DefinitionPart | null;
  reference: DefinitionPart | null;
  policy: DefinitionPart | null;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function at(root: unknown, path: readonly string[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    // own keys only: "constructor" or "__proto__" name nothing in a run's metadata
    if (!isObject(v) || !Object.hasOwn(v, key)) return undefined;
    v = v[key];
  }
  return v;
}

/** A value as text a grader reads: strings as they are, numbers as written, a non-empty list of strings one a line, an object of strings as "key:\n text" blocks; else null. */
export function asText(v: unknown): string | null {
  if (typeof v === "string") return v.trim() === "" ? null : v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  if (Array.isArray(v)) {
    const items = v.map((x) => (typeof x === "string" ? x : typeof x === "number" ? String(x) : null));
    return items.length > 0 && items.every((x) => x !== null && x.trim() !== "") ? items.join("\n") : null;
  }
  if (isObject(v)) {
    const entries = Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string" && e[1].trim() !== "");
    return entries.length > 0 && entries.length === Object.keys(v).length ? entries.map(([k, t]) => `${k}:\n${t}`).join("\n\n") : null;
  }
  return null;
}

function first(metadata: unknown, paths: readonly (readonly string[])[]): DefinitionPart | null {
  for (const path of paths) {
    const text = asText(at(metadata, path));
    if (text !== null) return { text, source: ["metadata", ...path].join(".") };
  }
  return null;
}

const INSTRUCTION = [
  ["task_definition", "instruction"],
  ["labels", "task", "instruction"],
  ["labels", "question"],
  ["task"],
  ["question"],
  ["query"],
  ["instruction"],
  ["prompt"],
] as const;
const REFERENCE = [["task_definition", "reference"], ["labels", "ground_truth"], ["labels", "task", "outputs"], ["reference"], ["reference_answer"]] as const;
const POLICY = [["task_definition", "policy"], ["system_prompt"], ["policy"]] as const;

export function taskDefinition(metadata: unknown): TaskDefinition {
  return { instruction: first(metadata, INSTRUCTION), reference: first(metadata, REFERENCE), policy: first(metadata, POLICY) };
}
