import type { EdgeType, EventType } from "../trace/types";
import type { AdaptedTraceBuilder, EventRef, Parent } from "./emit";

/**
 * One MARBLE iteration as events. The planner assigns tasks (a decision per
 * agent, plus a spawn the first time an agent appears), agents talk in
 * sessions (`From a to b:` lines), return results, and the planner
 * summarises (aggregate) and decides whether to go on (continue / stop).
 * MARBLE logs no clock: t counts the stages of the run.
 */

export const PLANNER = "planner";

export interface Iteration {
  iteration?: number | undefined;
  task_assignments: Record<string, string>;
  task_results: { agent: string; result: string }[];
  communications: string[];
  summary?: string | undefined;
  continue_simulation?: boolean | undefined;
  /** fields of the record kept on the summary event (kpis, chain_length, ...) */
  extra: Record<string, unknown>;
}

export interface RunState {
  /** the planner's latest event: the next iteration's decisions hang off it */
  planner: EventRef;
  spawned: Set<string>;
  t: number;
}

interface Tracked {
  ref: EventRef;
  type: EventType;
}

const FROM_LINE = /^From (\S+) to (\S+):[ \t]?/;

/** A session transcript as messages; a line that is not a `From` line continues the previous message. */
export function parseSession(text: string): { from: string; to: string; content: string }[] {
  const messages: { from: string; to: string; content: string }[] = [];
  for (const line of text.split("\n")) {
    const m = FROM_LINE.exec(line);
    if (m) messages.push({ from: m[1]!, to: m[2]!, content: line.slice(m[0].length) });
    else if (messages.length > 0) messages[messages.length - 1]!.content += `\n${line}`;
  }
  return messages;
}

function edgeInto(from: Tracked): EdgeType {
  if (from.type === "spawn") return "spawn";
  if (from.type === "message") return "message";
  return "causal";
}

export function addIteration(b: AdaptedTraceBuilder, it: Iteration, position: number, state: RunState): void {
  const iteration = it.iteration ?? position + 1;
  const stage = () => ++state.t;
  const latest = new Map<string, Tracked>();

  const decidedAt = stage();
  const spawnAt = stage();
  for (const [agent, assignment] of Object.entries(it.task_assignments)) {
    const isNew = !state.spawned.has(agent);
    const decision = b.add(
      { t: decidedAt, type: "orchestrator_decision", agent: PLANNER, role: "planner", decision: isNew ? "spawn" : "delegate", to: agent, content: assignment, iteration },
      [state.planner, "causal"],
    );
    latest.set(agent, { ref: decision, type: "orchestrator_decision" });
    if (isNew) {
      state.spawned.add(agent);
      const spawn = b.add({ t: spawnAt, type: "spawn", agent: PLANNER, role: "planner", to: agent, iteration }, [decision, "spawn"]);
      latest.set(agent, { ref: spawn, type: "spawn" });
    }
  }

  for (const session of it.communications) {
    let previous: Tracked | null = null;
    for (const message of parseSession(session)) {
      const parents: Parent[] = [];
      if (previous) parents.push([previous.ref, "message"]);
      const own = latest.get(message.from);
      if (own && own.ref !== previous?.ref) parents.push([own.ref, edgeInto(own)]);
      if (parents.length === 0) parents.push([state.planner, "causal"]);
      const ref = b.add({ t: stage(), type: "message", agent: message.from, role: "agent", from: message.from, to: message.to, content: message.content, iteration }, ...parents);
      previous = { ref, type: "message" };
      latest.set(message.from, previous);
      latest.set(message.to, previous);
    }
  }

  const resultsAt = stage();
  const results: EventRef[] = [];
  for (const { agent, result } of it.task_results) {
    const own = latest.get(agent);
    const parent: Parent = own ? [own.ref, edgeInto(own)] : [state.planner, "causal"];
    results.push(b.add({ t: resultsAt, type: "return", agent, role: "agent", from: agent, to: PLANNER, content: result, iteration }, parent));
  }

  const summaryAt = stage();
  // Without results (MARBLE's chain mode logs none), the summary stands on the agents' assignments.
  const inputs = results.length > 0 ? results : [...latest.values()].map((x) => x.ref);
  const parents: Parent[] = inputs.length > 0 ? inputs.map((ref) => [ref, "aggregate"]) : [[state.planner, "causal"]];
  if (it.summary !== undefined) {
    state.planner = b.add({ t: summaryAt, type: "aggregate", agent: PLANNER, role: "planner", content: it.summary, iteration, ...it.extra }, ...parents);
  }
  if (it.continue_simulation !== undefined) {
    const from: Parent[] = it.summary !== undefined ? [[state.planner, "causal"]] : parents;
    const fields = it.continue_simulation
      ? ({ decision: "continue" } as const)
      : ({ decision: "stop", reason: "complete" } as const);
    state.planner = b.add({ t: stage(), type: "orchestrator_decision", agent: PLANNER, role: "planner", ...fields, iteration }, ...from);
  }
}
