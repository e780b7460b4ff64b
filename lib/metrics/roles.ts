/**
 * Per-event roles: the metrics' verdict on each event, packed as bit flags
 * (one Uint16 per event) so that a 100k-event trace carries them in 200 KB
 * and the UI can colour or filter events without recomputing anything.
 */

export const ROLE = {
  /** On at least one longest causal path (E2 critical_steps). */
  critical: 1 << 0,
  /** The terminal event. */
  terminal: 1 << 1,
  /** An ancestor of the terminal event. */
  contributes: 1 << 2,
  /** A message that is not an ancestor of the terminal event (E3). */
  deadMessage: 1 << 3,
  /** Reached by untrusted input (E4 taint). */
  tainted: 1 << 4,
  /** status `error`, or a safety_event (E4 error amplification). */
  errorSource: 1 << 5,
  /** A causal descendant of an error source, not a source itself. */
  errorDescendant: 1 << 6,
  /** The stop event (the last stop decision). */
  stop: 1 << 7,
  /** After the stop event (or the terminal when there is none) in event order. */
  tail: 1 << 8,
  /** Neither the terminal, nor its ancestors, nor a stop event. */
  wasted: 1 << 9,
} as const;

export type RoleName = keyof typeof ROLE;

const ROLE_ENTRIES = Object.entries(ROLE) as [RoleName, number][];

/** The names of the roles set in `flags`, in the order of {@link ROLE}. */
export function roleNames(flags: number): RoleName[] {
  const names: RoleName[] = [];
  for (const [name, bit] of ROLE_ENTRIES) if ((flags & bit) !== 0) names.push(name);
  return names;
}

export interface RoleInputs {
  readonly critical: Uint8Array;
  readonly terminal: number;
  readonly terminalDist: Int32Array;
  readonly deadMessage: Uint8Array;
  readonly tainted: Uint8Array;
  readonly errorSource: Uint8Array;
  readonly errorDescendant: Uint8Array;
  readonly stop: number;
  /** Event order index per event, and that of the reference event. */
  readonly rank: Int32Array;
  readonly refRank: number;
  readonly wasted: Uint8Array;
}

/** Packs the metric masks into one flag word per event. O(V). */
export function packRoles(r: RoleInputs): Uint16Array {
  const n = r.rank.length;
  const roles = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    let f = 0;
    if (r.critical[i] === 1) f |= ROLE.critical;
    if (r.terminalDist[i]! > 0) f |= ROLE.contributes;
    if (r.deadMessage[i] === 1) f |= ROLE.deadMessage;
    if (r.tainted[i] === 1) f |= ROLE.tainted;
    if (r.errorSource[i] === 1) f |= ROLE.errorSource;
    if (r.errorDescendant[i] === 1) f |= ROLE.errorDescendant;
    if (r.rank[i]! > r.refRank) f |= ROLE.tail;
    if (r.wasted[i] === 1) f |= ROLE.wasted;
    roles[i] = f;
  }
  roles[r.terminal] = roles[r.terminal]! | ROLE.terminal;
  if (r.stop >= 0) roles[r.stop] = roles[r.stop]! | ROLE.stop;
  return roles;
}
