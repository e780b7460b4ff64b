import "server-only";
import { createHash } from "node:crypto";
import { blameInput, type BlameInput, type LabelledTrace } from "@/lib/blame";
import { pool } from "../db/client";
import { loadGroup, loadTraceById } from "../queries/load-trace";
import { DECISIVE_SQL } from "../queries/decisive-errors";

/** Which labelled traces: a project (by id or name), a system, and the projects a caller may read. */
export interface LabelledFilter {
  projectId?: number;
  project?: string;
  system?: string;
  /** only these projects (the caller's readable ones); absent: all */
  readable?: readonly string[];
}

export interface LabelledRow {
  id: number;
  trace_id: string;
  system: string | null;
  group_id: string | null;
  event_id: string;
  agent: string;
  /** the trace's events (what a scoring's time grows with) */
  event_count: number;
}

/** The traces under a filter that have a decisive error (SPEC.md section 5), in trace_id order. */
export async function labelledRows(f: LabelledFilter): Promise<LabelledRow[]> {
  const { rows } = await pool().query<LabelledRow>(
    `SELECT t.id, t.trace_id, t.system, t.group_id, d.event_id, d.agent, t.event_count
     FROM traces t JOIN (${DECISIVE_SQL}) d ON d.trace_key = t.trace_id
     WHERE ($1::int IS NULL OR t.project_id = $1)
       AND ($2::text IS NULL OR t.project_id = (SELECT id FROM projects WHERE name = $2))
       AND ($3::text IS NULL OR t.system = $3)
       AND ($4::text[] IS NULL OR t.project_id IN (SELECT id FROM projects WHERE name = ANY($4)))
     ORDER BY t.trace_id`,
    [f.projectId ?? null, f.project ?? null, f.system ?? null, f.readable ?? null],
  );
  return rows;
}

/** What the labels under a filter are: a changed, added or removed decisive error changes it. */
export function fingerprintOf(rows: readonly LabelledRow[]): string {
  const h = createHash("sha256");
  for (const r of rows) h.update(`${r.trace_id}\u0000${r.event_id}\u0000${r.agent}\u0001`);
  return h.digest("hex");
}

/** A stored trace as an attribution method sees it: stripped of labels (lib/blame/input.ts), with its group's other rollouts. */
export async function blameInputOf(traceDbId: number, groupId: string | null): Promise<BlameInput> {
  const trace = await loadTraceById(traceDbId, { content: "all" });
  const group = groupId ? await loadGroup(groupId) : [];
  return blameInput(trace, group);
}

export async function loadLabelled(rows: readonly LabelledRow[]): Promise<LabelledTrace[]> {
  const out: LabelledTrace[] = [];
  for (const r of rows) out.push({ input: await blameInputOf(r.id, r.group_id), decisive_event_id: r.event_id, decisive_agent: r.agent });
  return out;
}
