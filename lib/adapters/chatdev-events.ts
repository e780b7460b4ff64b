import type { EventFields } from "../trace/builder";
import type { AdaptedFields, AdaptedTraceBuilder, EventRef, Parent } from "./emit";
import { numbersIn, type LogEntry } from "./chatdev-log";

/**
 * Walks the entries of one ChatDev log and adds its events. ChatDev's chat
 * chain (agent `ChatChain`) runs phases in order; each phase is a role-play
 * between two roles, created afresh for the phase:
 * - a phase -> orchestrator_decision (spawn) + a spawn of each role of the pair;
 * - the chat start and every turn -> message (the LLM call's Send..Receive
 *   as t..t_end, its total_tokens as tokens);
 * - Seminar Conclusion -> aggregate; user comments in CodeReviewHuman ->
 *   human_intervention; a test report -> tool_result (status error unless
 *   the software ran); the end of the run -> stop decision.
 */

export const CHAT_CHAIN = "ChatChain";

interface Phase {
  name: string | undefined;
  decision: EventRef;
  pair: string[];
  spawns: Map<string, EventRef>;
  /** roles whose first event in the phase is still to come (it hangs off their spawn) */
  unspoken: Set<string>;
  last: EventRef | null;
  conclusion: EventRef | null;
  started: boolean;
  lastKey: number;
  /** events added before the phase's name and pair were known (a phase opened by its chat start) */
  pending: { ref: EventRef; speaker: string | null }[];
}

interface Call {
  send: number | undefined;
  receive: number;
  tokens: number;
}

export function addChatDevEvents(b: AdaptedTraceBuilder, entries: readonly LogEntry[], origin: number, task: string): void {
  const t = (time: number) => Math.max(0, time - origin);
  const root = b.add({ t: 0, type: "orchestrator_decision", agent: CHAT_CHAIN, role: "chat_chain", content: task, kind: "run_start" });
  let planner: EventRef = root;
  // typed by assertion: the closures below reassign it, which flow analysis does not see
  let phase = null as Phase | null;
  let execute: Record<string, string | number> | null = null;
  let humanAsked: number | null = null;
  const sends: number[] = [];
  const calls: Call[] = [];

  const chain = (fields: Omit<EventFields, "agent"> & { [extra: string]: unknown }, ...parents: Parent[]) => b.add({ agent: CHAT_CHAIN, role: "chat_chain", ...fields }, ...parents);
  const close = () => {
    if (phase) planner = phase.conclusion ?? phase.last ?? phase.decision;
    phase = null;
  };
  const open = (entry: LogEntry): Phase => {
    close();
    const decision = chain({ t: t(entry.time), type: "orchestrator_decision", decision: "spawn", ...(entry.phase ? { content: entry.phase, phase: entry.phase } : {}), ...execute }, [planner, "causal"]);
    execute = null;
    const opened: Phase = { name: entry.phase, decision, pair: [], spawns: new Map(), unspoken: new Set(), last: null, conclusion: null, started: false, lastKey: -1, pending: [] };
    for (const role of entry.pair ?? []) join(opened, role);
    phase = opened;
    return opened;
  };
  const join = (p: Phase, role: string) => {
    if (p.spawns.has(role)) return;
    p.pair.push(role);
    p.unspoken.add(role);
    const spawn = chain({ t: b.timeOf(p.decision), type: "spawn", to: role, ...(p.name ? { phase: p.name } : {}) }, [p.decision, "spawn"]);
    p.spawns.set(role, spawn);
    if (!p.name) p.pending.push({ ref: spawn, speaker: null });
  };
  /** A phase opened by its chat start learns its name and pair from the first turn header. */
  const learn = (p: Phase, entry: LogEntry) => {
    if (p.name !== undefined || entry.phase === undefined) return;
    p.name = entry.phase;
    b.annotate(p.decision, { content: entry.phase, phase: entry.phase });
    for (const { ref, speaker } of p.pending) {
      const to = speaker !== null ? entry.pair?.find((r) => r !== speaker) : undefined;
      b.annotate(ref, { phase: entry.phase, ...(to ? { to } : {}) });
    }
    p.pending = [];
  };
  const say = (p: Phase, entry: LogEntry, speaker: string, fields: Partial<AdaptedFields>) => {
    join(p, speaker);
    if (entry.pair) for (const role of entry.pair) join(p, role);
    const to = p.pair.find((r) => r !== speaker);
    const parents: Parent[] = [];
    if (p.last !== null) parents.push([p.last, "message"]);
    if (p.unspoken.delete(speaker)) parents.push([p.spawns.get(speaker)!, "spawn"]);
    p.last = b.add({ t: t(entry.time), type: "message", agent: speaker, role: speaker, from: speaker, ...(to ? { to } : {}), content: entry.body, ...(p.name ? { phase: p.name } : {}), ...fields }, ...parents);
    if (!p.name) p.pending.push({ ref: p.last, speaker });
    p.started = true;
  };

  for (const entry of entries) {
    switch (entry.kind) {
      case "phase":
        open(entry);
        break;
      case "system_message":
        if (phase && entry.speaker) join(phase, entry.speaker);
        break;
      case "start": {
        const p = phase && !phase.started ? phase : open(entry);
        say(p, entry, entry.speaker!, { chat_start: true });
        break;
      }
      case "turn": {
        const key = entry.side ? entry.turn! * 2 + (entry.side === "user" ? 1 : 0) : -1;
        const fits = phase !== null && (entry.phase === undefined || phase.name === undefined || phase.name === entry.phase) && (key < 0 || key > phase.lastKey);
        const p = fits ? phase! : open(entry);
        learn(p, entry);
        p.lastKey = key;
        const call = calls.shift();
        const timing = call ? { t: t(call.send ?? entry.time), t_end: t(entry.time), tokens: call.tokens } : {};
        say(p, entry, entry.speaker!, { turn: entry.turn, ...timing });
        break;
      }
      case "terminated":
        close();
        break;
      case "usage_send":
        sends.push(entry.time);
        break;
      case "usage":
        // Sends without a Receive are attempts that were retried: the turn waited from the first of them
        calls.push({ send: sends[0], receive: entry.time, tokens: numbersIn(entry.body).total_tokens ?? 0 });
        sends.length = 0;
        break;
      case "conclusion": {
        // LLM calls no turn consumed (reflection inside the phase) are charged to its conclusion
        const tokens = calls.splice(0).reduce((s, c) => s + c.tokens, 0);
        const from: Parent = phase ? [phase.last ?? phase.decision, "aggregate"] : [planner, "aggregate"];
        const ref = chain({ t: t(entry.time), type: "aggregate", content: entry.body, ...(phase?.name ? { phase: phase.name } : {}), ...(tokens > 0 ? { tokens } : {}) }, from);
        if (phase) phase.conclusion = ref;
        else planner = ref;
        break;
      }
      case "execute":
        execute = executeDetail(entry.body);
        break;
      case "human_prompt":
        humanAsked = entry.time;
        break;
      case "human":
        close();
        planner = b.add({ t: t(humanAsked ?? entry.time), t_end: t(entry.time), type: "human_intervention", agent: "human", role: "user", content: entry.body }, [planner, "causal"]);
        humanAsked = null;
        break;
      case "test_report":
        close();
        planner = chain({ t: t(entry.time), type: "tool_result", tool: "run_software", content: entry.body, ...(/run successfully without errors/i.test(entry.body) ? {} : { status: "error" }) }, [planner, "causal"]);
        break;
      case "post_info":
      case "run_end":
        close();
        planner = chain({ t: t(entry.time), type: "orchestrator_decision", decision: "stop", reason: "complete", content: entry.kind === "post_info" ? entry.body : entry.head }, [planner, "causal"]);
        break;
      default:
        break;
    }
  }
}

/** `execute SimplePhase:[X] in ComposedPhase:[Y], cycle N`: what the next phase decision runs. */
function executeDetail(body: string): Record<string, string | number> | null {
  const m = /SimplePhase:\[(\w+)\](?: in ComposedPhase:\[(\w+)\], cycle (\d+))?/.exec(body);
  if (!m) return null;
  return { simple_phase: m[1]!, ...(m[2] ? { composed_phase: m[2], cycle: Number(m[3]) } : {}) };
}
