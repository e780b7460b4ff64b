import type { EdgeType, EventType, StopReason } from "../trace/types";
import type { AdaptedTraceBuilder, EventRef, Parent, UntimedFields } from "./emit";

/**
 * Turns the history of a Who&When run into events, one primary event per
 * step (t = the step index; the logs have no clock). Two systems speak in
 * this dataset:
 * - Magentic-One: `Orchestrator (thought)`, `Orchestrator (-> X)`,
 *   `Orchestrator (termination condition)` and the workers' replies;
 * - CaptainAgent (AG2): a group chat of named experts and a code executor.
 * The mapping follows shared/data/README.md; docs/adapters.md has the table.
 */

export interface Turn {
  role: string;
  name?: string | undefined;
  content: string;
}

/** What step k became: its primary event (the one a label points at), who spoke it and to whom. */
export interface MappedStep {
  ref: EventRef;
  speaker: string;
  addressee: string | null;
}

export const ORCHESTRATOR = "Orchestrator";
const ROLE_TAG = /^(.+?) \((.+)\)$/;
const CODE_BLOCK = /```/;
const FAILED_EXECUTION = /exitcode: [1-9]|execution failed|exit code (?:was: )?[1-9]|Traceback \(most recent call last\)/i;

export function isTerminal(agent: string): boolean {
  return /terminal/i.test(agent);
}

export function isMagenticOne(history: readonly Turn[]): boolean {
  return history.some((t) => t.role.startsWith(`${ORCHESTRATOR} (`));
}

/** The edge from the previous step into this one, by what the previous step was. */
function edgeAfter(previous: EventType, next: EventType): EdgeType {
  if (next === "aggregate") return "aggregate";
  if (previous === "tool_call" && next === "tool_result") return "return";
  if (previous === "return") return "return";
  if (previous === "message" || previous === "aggregate") return "message";
  return "causal";
}

function stopReason(content: string): StopReason {
  if (/^Max rounds/i.test(content)) return "max_turns";
  if (/^Max time/i.test(content)) return "budget_exhausted";
  return "complete";
}

export function mapMagenticOne(b: AdaptedTraceBuilder, history: readonly Turn[]): MappedStep[] {
  const steps: MappedStep[] = [];
  const spawned = new Set<string>();
  /** spawn events whose worker has not spoken yet: its first event hangs off the spawn */
  const spawnOf = new Map<string, EventRef>();
  const lastMessageTo = new Map<string, EventRef>();
  let previous: { ref: EventRef; type: EventType } | null = null;
  let lastOrchestrator: EventRef | null = null;
  let codeTurn: EventRef | null = null;

  const add = (fields: UntimedFields, step: number, parents: Parent[]): EventRef => {
    const unique = parents.filter(([ref], i) => parents.findIndex(([r]) => r === ref) === i);
    const ref = b.add({ ...fields, t: step, step }, ...unique);
    previous = { ref, type: fields.type };
    return ref;
  };
  const fromPrevious = (type: EventType): Parent[] => (previous ? [[previous.ref, edgeAfter(previous.type, type)]] : []);
  const orchestratorParents = (type: EventType): Parent[] => {
    const parents = fromPrevious(type);
    if (lastOrchestrator !== null && lastOrchestrator !== previous?.ref) parents.push([lastOrchestrator, "causal"]);
    return parents;
  };

  history.forEach((turn, k) => {
    const content = turn.content;
    const tagged = ROLE_TAG.exec(turn.role);
    const agent = tagged ? tagged[1]! : turn.role;
    const tag = tagged ? tagged[2]! : null;
    if (turn.role === "human") {
      steps.push({ ref: add({ type: "message", agent: "human", role: "user", from: "human", to: ORCHESTRATOR, content }, k, fromPrevious("message")), speaker: "human", addressee: ORCHESTRATOR });
    } else if (agent === ORCHESTRATOR && tag?.startsWith("-> ")) {
      const target = tag.slice(3);
      let parents = orchestratorParents("message");
      if (!spawned.has(target)) {
        const spawn = add({ type: "spawn", agent, role: "orchestrator", to: target }, k, parents);
        spawned.add(target);
        spawnOf.set(target, spawn);
        parents = [[spawn, "causal"]];
      }
      const ref = add({ type: "message", agent, role: "orchestrator", from: agent, to: target, content }, k, parents);
      lastMessageTo.set(target, ref);
      lastOrchestrator = ref;
      if (CODE_BLOCK.test(content)) codeTurn = ref;
      steps.push({ ref, speaker: agent, addressee: target });
    } else if (agent === ORCHESTRATOR && tag === "termination condition") {
      let parents = orchestratorParents("orchestrator_decision");
      if (/FINAL ANSWER:/.test(content)) {
        const answer = add({ type: "aggregate", agent, role: "orchestrator", content }, k, orchestratorParents("aggregate"));
        parents = [[answer, "causal"]];
      }
      const ref = add({ type: "orchestrator_decision", agent, role: "orchestrator", decision: "stop", reason: stopReason(content), content }, k, parents);
      lastOrchestrator = ref;
      steps.push({ ref, speaker: agent, addressee: null });
    } else if (agent === ORCHESTRATOR) {
      const ref = add({ type: "orchestrator_decision", agent, role: "orchestrator", content, ...(tag !== null ? { orchestrator_tag: tag } : {}) }, k, orchestratorParents("orchestrator_decision"));
      lastOrchestrator = ref;
      steps.push({ ref, speaker: agent, addressee: null });
    } else {
      const parents: Parent[] = [];
      const incoming = lastMessageTo.get(agent);
      if (incoming !== undefined) parents.push([incoming, "message"]);
      const spawn = spawnOf.get(agent);
      if (spawn !== undefined) parents.push([spawn, "spawn"]);
      if (parents.length === 0) parents.push(...fromPrevious("return"));
      let ref: EventRef;
      if (isTerminal(agent) && codeTurn !== null) {
        parents.push([codeTurn, "tool_dependency"]);
        ref = add({ type: "tool_result", agent, role: "code_executor", tool: "code_execution", content, ...(FAILED_EXECUTION.test(content) ? { status: "error" } : {}) }, k, parents);
        codeTurn = null;
      } else {
        ref = add({ type: "return", agent, role: "worker", from: agent, to: ORCHESTRATOR, content }, k, parents);
        if (CODE_BLOCK.test(content)) codeTurn = ref;
      }
      spawnOf.delete(agent);
      lastMessageTo.delete(agent);
      steps.push({ ref, speaker: agent, addressee: ORCHESTRATOR });
    }
  });
  return steps;
}

/**
 * CaptainAgent group chat: every turn is read by the next speaker, so the
 * steps form one chain. A turn with a code block that the executor answers
 * is a tool_call, the executor's output its tool_result; a turn ending in
 * TERMINATE (AG2's termination convention) is an aggregate.
 */
export function mapGroupChat(b: AdaptedTraceBuilder, history: readonly Turn[]): MappedStep[] {
  const steps: MappedStep[] = [];
  let previous: { ref: EventRef; type: EventType } | null = null;
  history.forEach((turn, k) => {
    const speaker = turn.name ?? turn.role;
    const content = turn.content;
    const next = history[k + 1];
    const nextSpeaker = next ? (next.name ?? next.role) : "";
    let fields: UntimedFields;
    if (isTerminal(speaker) && previous?.type === "tool_call") {
      fields = { type: "tool_result", agent: speaker, role: "code_executor", tool: "code_execution", content, ...(FAILED_EXECUTION.test(content) ? { status: "error" } : {}) };
    } else if (!isTerminal(speaker) && CODE_BLOCK.test(content) && isTerminal(nextSpeaker)) {
      fields = { type: "tool_call", agent: speaker, role: "expert", tool: "code_execution", content };
    } else if (content.trimEnd().endsWith("TERMINATE")) {
      fields = { type: "aggregate", agent: speaker, role: "expert", content };
    } else {
      fields = { type: "message", agent: speaker, role: isTerminal(speaker) ? "code_executor" : "expert", from: speaker, content };
    }
    const parents: Parent[] = previous ? [[previous.ref, edgeAfter(previous.type, fields.type)]] : [];
    const ref = b.add({ ...fields, t: k, step: k }, ...parents);
    previous = { ref, type: fields.type };
    steps.push({ ref, speaker, addressee: null });
  });
  return steps;
}
