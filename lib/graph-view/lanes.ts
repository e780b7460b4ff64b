/**
 * One lane per agent, ordered by the spawn hierarchy: roots first (those
 * that spawn others before those that do not, then by first appearance),
 * each agent directly followed by the agents it spawned, in spawn order.
 */
import type { GraphLane } from "./wire";

/** The fields lane assignment reads from an event. */
export interface LaneEvent {
  agent: string;
  type: string;
  role?: string | null;
  to?: string | null;
  t: number;
  t_end?: number | null;
}

export interface LaneAssignment {
  lanes: GraphLane[];
  /** Lane index of each event, in the order the events were given. */
  laneOf: Int32Array;
}

interface AgentInfo {
  name: string;
  first: number;
  firstT: number;
  lastT: number;
  events: number;
  roles: Map<string, number>;
  /** Agent that spawned this one first (by event order), and that spawn's role. */
  parent: number | null;
  spawnRole: string | null;
  children: number[];
}

/**
 * Lanes of a trace whose events are given in event order. An agent that is
 * spawned but never acts has no lane; a spawn cycle (A spawns B, B spawns A)
 * is broken at the agent that appears first. O(events + agents).
 */
export function assignLanes(events: readonly LaneEvent[]): LaneAssignment {
  const index = new Map<string, number>();
  const agents: AgentInfo[] = [];
  const agentOf = new Int32Array(events.length);
  events.forEach((e, k) => {
    let a = index.get(e.agent);
    if (a === undefined) {
      a = agents.length;
      index.set(e.agent, a);
      agents.push({ name: e.agent, first: k, firstT: e.t, lastT: e.t, events: 0, roles: new Map(), parent: null, spawnRole: null, children: [] });
    }
    const info = agents[a]!;
    info.events++;
    info.lastT = Math.max(info.lastT, e.t_end ?? e.t);
    info.firstT = Math.min(info.firstT, e.t);
    if (e.role) info.roles.set(e.role, (info.roles.get(e.role) ?? 0) + 1);
    agentOf[k] = a;
  });
  linkSpawns(events, index, agents);

  const order = hierarchyOrder(agents);
  const laneOfAgent = new Int32Array(agents.length);
  order.forEach((a, lane) => (laneOfAgent[a] = lane));
  const depth = new Int32Array(agents.length);
  const lanes = order.map((a): GraphLane => {
    const info = agents[a]!;
    const parent = info.parent === null ? null : laneOfAgent[info.parent]!;
    if (info.parent !== null) depth[a] = depth[info.parent]! + 1;
    return { agent: info.name, role: mainRole(info), parent, depth: depth[a]!, first_t: info.firstT, last_t: info.lastT, events: info.events };
  });
  const laneOf = new Int32Array(events.length);
  for (let k = 0; k < events.length; k++) laneOf[k] = laneOfAgent[agentOf[k]!]!;
  return { lanes, laneOf };
}

/** Parent of each agent: the agent of the first spawn event naming it in `to`. */
function linkSpawns(events: readonly LaneEvent[], index: ReadonlyMap<string, number>, agents: AgentInfo[]): void {
  for (const e of events) {
    if (e.type !== "spawn" || !e.to) continue;
    const child = index.get(e.to);
    const parent = index.get(e.agent)!;
    if (child === undefined || child === parent || agents[child]!.parent !== null) continue;
    agents[child]!.parent = parent;
    agents[child]!.spawnRole = e.role ?? null;
    agents[parent]!.children.push(child);
  }
}

/** Pre-order walk of the spawn forest; cycles are broken where the walk first enters them. */
function hierarchyOrder(agents: AgentInfo[]): number[] {
  const visited = new Uint8Array(agents.length);
  const order: number[] = [];
  const walk = (root: number) => {
    const stack = [root];
    while (stack.length > 0) {
      const a = stack.pop()!;
      if (visited[a] === 1) continue;
      visited[a] = 1;
      order.push(a);
      const children = agents[a]!.children;
      for (let i = children.length - 1; i >= 0; i--) if (visited[children[i]!] === 0) stack.push(children[i]!);
    }
  };
  const byFirst = agents.map((_, a) => a); // agents are numbered by first appearance already
  const roots = byFirst.filter((a) => agents[a]!.parent === null);
  const spawners = roots.filter((a) => agents[a]!.children.length > 0);
  const loners = roots.filter((a) => agents[a]!.children.length === 0);
  for (const a of [...spawners, ...loners]) walk(a);
  for (const a of byFirst) {
    if (visited[a] === 1) continue;
    agents[a]!.parent = null; // inside a spawn cycle: shown as a root
    walk(a);
  }
  return order;
}

function mainRole(info: AgentInfo): string | null {
  let best: string | null = null;
  let count = 0;
  for (const [role, n] of info.roles) {
    if (n > count) {
      best = role;
      count = n;
    }
  }
  return best ?? info.spawnRole;
}
