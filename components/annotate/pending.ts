/**
 * Labels that could not be saved yet, kept in this browser's localStorage
 * per trace, each with the user who made it. Only that user's page retries
 * them; anyone else on the browser is told whose they are and may discard
 * them, never save them under their own name.
 */
import type { LabelWrite } from "./api";

export interface LabelUser {
  /** "local" in open local mode, else the user id */
  key: string;
  name: string;
}

export interface PendingLabel {
  write: LabelWrite;
  user: LabelUser;
}

const storageKey = (traceId: string) => `baton:pending-labels:${traceId}`;

export function readPending(traceId: string): Record<string, PendingLabel> {
  try {
    const raw = JSON.parse(localStorage.getItem(storageKey(traceId)) ?? "{}") as Record<string, Partial<PendingLabel>>;
    const out: Record<string, PendingLabel> = {};
    // entries without a user (written before users were stored) belong to nobody: they are shown, never saved
    for (const [key, p] of Object.entries(raw)) {
      if (p && typeof p === "object" && p.write) out[key] = { write: p.write, user: p.user ?? { key: "?", name: "an unknown user" } };
    }
    return out;
  } catch {
    return {};
  }
}

export function writePending(traceId: string, pending: Record<string, PendingLabel>): void {
  if (Object.keys(pending).length === 0) localStorage.removeItem(storageKey(traceId));
  else localStorage.setItem(storageKey(traceId), JSON.stringify(pending));
}

/** Pending labels of other users, counted per user name. */
export function othersPending(pending: Record<string, PendingLabel>, me: LabelUser | null): { name: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const p of Object.values(pending)) if (!me || p.user.key !== me.key) counts.set(p.user.name, (counts.get(p.user.name) ?? 0) + 1);
  return [...counts].map(([name, count]) => ({ name, count }));
}
