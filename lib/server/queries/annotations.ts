import "server-only";
import { reader } from "../db/read";
import type { AnnotationInput, ApiAnnotation } from "@/lib/api/annotations";
import { NO_JUDGES, withJudgeValues, type JudgeSelection } from "@/lib/judges";
import { humanLabelsFrom, type HumanLabels } from "@/lib/rewards";
import type { Actor } from "../auth/access";
import { pool, prisma } from "../db/client";
import { ApiError, notFound } from "../errors";
import { judgeValues } from "../judges/labels";

/**
 * Annotations (SPEC.md section 5): one current value per (unit, family,
 * annotator), written atomically with INSERT ... ON CONFLICT so that
 * concurrent submissions never duplicate or lose a label; every change is
 * appended to annotation_revisions.
 */
export async function saveAnnotation(traceKey: string, traceDbId: number, actor: Actor, input: AnnotationInput): Promise<ApiAnnotation> {
  return (await saveLabel(traceKey, traceDbId, actor, input)).annotation;
}

/**
 * saveAnnotation, and for a trace-level label the trace's trace-level labels
 * as they are once it is written (`traceLabels`; null for an event-level
 * label, or when the write changed nothing). They are the only labels the
 * stored values read (lib/annotate/recompute.ts), so the recompute need not
 * read labels again; one another writer commits meanwhile is caught by the
 * recompute's own check (lib/server/compute/persist.ts).
 */
export async function saveLabel(traceKey: string, traceDbId: number, actor: Actor, input: AnnotationInput): Promise<{ annotation: ApiAnnotation; traceLabels: HumanLabels | null }> {
  const eventId = input.event_id ?? "";
  // One statement (atomic on its own, one round trip): the event must exist;
  // a conflicting row is updated only when the value or comment differs, so
  // a resubmission of the same label returns no row and adds no revision.
  // Its snapshot does not see its own write: the caller's row of this family
  // is left out of the trace-level labels and its new value ($5) put in.
  const written = await pool().query<StoredRow & { trace_labels: [boolean, string, number][] | null }>({
    name: "annotations.save",
    // the trace row is share-locked: a concurrent delete waits for this write (and then deletes its label),
    // or, when it deleted first, this write finds no trace and writes nothing
    text: `WITH trace AS (SELECT 1 FROM traces WHERE id = $7 AND trace_id = $1 FOR KEY SHARE),
     written AS (
       INSERT INTO annotations (trace_key, event_id, family, annotator_id, value, comment)
       SELECT $1, $2, $3, $4, $5, $6
       WHERE EXISTS (SELECT 1 FROM trace) AND ($2 = '' OR EXISTS (SELECT 1 FROM events WHERE trace_id = $7 AND event_id = $2))
       ON CONFLICT (trace_key, event_id, family, annotator_id) DO UPDATE
         SET value = EXCLUDED.value, comment = EXCLUDED.comment, updated_at = now()
         WHERE annotations.value IS DISTINCT FROM EXCLUDED.value OR annotations.comment IS DISTINCT FROM EXCLUDED.comment
       RETURNING id, value, comment, updated_at),
     revision AS (INSERT INTO annotation_revisions (annotation_id, value, comment) SELECT id, value, comment FROM written)
     SELECT w.*, CASE WHEN $2 = '' THEN (
       SELECT coalesce(json_agg(json_build_array(l.adjudicated, l.family, l.value)), '[]') FROM (
         SELECT false AS adjudicated, family, value FROM annotations
           WHERE trace_key = $1 AND event_id = '' AND NOT (family = $3 AND annotator_id = $4)
         UNION ALL SELECT false, $3, $5
         UNION ALL SELECT true, family, value FROM adjudications WHERE trace_key = $1 AND event_id = '') l
     ) END AS trace_labels
     FROM written w`,
    values: [traceKey, eventId, input.family, actor.userId, input.value, input.comment ?? null, traceDbId],
  });
  let row: StoredRow | undefined = written.rows[0];
  const traceLabels = written.rows[0]?.trace_labels ? traceLabelsOf(written.rows[0].trace_labels.map(([adjudicated, family, value]) => ({ adjudicated, family, value }))) : null;
  if (!row) {
    const current = await pool().query<StoredRow>(
      "SELECT id, value, comment, updated_at FROM annotations WHERE trace_key = $1 AND event_id = $2 AND family = $3 AND annotator_id = $4",
      [traceKey, eventId, input.family, actor.userId],
    );
    row = current.rows[0];
    if (!row && !(await traceExists(traceDbId))) throw notFound(`trace "${traceKey}"`);
    if (!row) throw new ApiError(400, "invalid_input", `the trace has no event "${eventId}"`, [{ path: "$.event_id", message: `no event "${eventId}" in this trace` }]);
  }
  return {
    annotation: { id: row.id, event_id: eventId || null, family: input.family, value: row.value, comment: row.comment, annotator: actor.name, imported: false, updated_at: row.updated_at.toISOString() },
    traceLabels,
  };
}

/** Whether the trace row still exists (a label write or recompute that found nothing may have met a delete). */
export async function traceExists(traceDbId: number): Promise<boolean> {
  return (await pool().query("SELECT 1 FROM traces WHERE id = $1", [traceDbId])).rowCount === 1;
}

/** Trace-level labels from their stored rows (the label write's, and each recompute statement's). */
export function traceLabelsOf(rows: { adjudicated: boolean; family: string; value: number }[]): HumanLabels {
  const row = (r: { family: string; value: number }) => ({ event_id: null, family: r.family, value: r.value });
  return humanLabelsFrom(rows.filter((r) => !r.adjudicated).map(row), rows.filter((r) => r.adjudicated).map(row));
}

interface StoredRow {
  id: number;
  value: number;
  comment: string | null;
  updated_at: Date;
}

/** Current values of every annotator on a trace. */
export async function listAnnotations(traceKey: string, annotatorId?: number): Promise<ApiAnnotation[]> {
  // a named statement on the hot read path of the label page; -1 means every annotator
  const { rows } = await (await reader()).pool.query<StoredRow & { event_id: string; family: string; annotator: string; imported: boolean }>({
    name: "annotations.list",
    text: `SELECT a.id, a.event_id, a.family, a.value, a.comment, a.updated_at, u.name AS annotator, u.imported
           FROM annotations a JOIN users u ON u.id = a.annotator_id
           WHERE a.trace_key = $1 AND ($2::int = -1 OR a.annotator_id = $2)
           ORDER BY a.event_id, a.family, a.id`,
    values: [traceKey, annotatorId ?? -1],
  });
  return rows.map((r) => ({
    id: r.id,
    event_id: r.event_id || null,
    family: r.family,
    value: r.value,
    comment: r.comment,
    annotator: r.annotator,
    imported: r.imported,
    updated_at: r.updated_at.toISOString(),
  }));
}

/**
 * The human labels of a trace as the compute core takes them, and the time
 * of the newest one; with a judge selection, judge values fill the units
 * and families people left empty (SPEC.md section 5).
 */
export async function humanLabels(traceKey: string, judges: JudgeSelection = NO_JUDGES): Promise<{ labels: HumanLabels; asOf: Date | null }> {
  // one round trip for both tables, a named statement (every recompute and credit read asks)
  const { rows } = await (await reader()).pool.query<{ adjudicated: boolean; event_id: string; family: string; value: number; updated_at: Date }>({
    name: "annotations.labels",
    text: `SELECT false AS adjudicated, event_id, family, value, updated_at FROM annotations WHERE trace_key = $1
           UNION ALL SELECT true, event_id, family, value, updated_at FROM adjudications WHERE trace_key = $1`,
    values: [traceKey],
  });
  const annotations = rows.filter((r) => !r.adjudicated);
  const adjudications = rows.filter((r) => r.adjudicated);
  const toRow = (r: { event_id: string; family: string; value: number }) => ({ event_id: r.event_id || null, family: r.family, value: r.value });
  const times = rows.map((r) => r.updated_at.getTime());
  const human = humanLabelsFrom(annotations.map(toRow), adjudications.map(toRow));
  const judged = await judgeValues(traceKey, judges);
  times.push(...judged.map((r) => r.at.getTime()));
  return {
    labels: judged.length === 0 ? human : withJudgeValues(human, judged),
    asOf: times.length > 0 ? new Date(Math.max(...times)) : null,
  };
}

/** Removes an annotator's own current value of a unit and family (undo of a first label); its revisions go with it. Returns whether one existed. */
export async function deleteOwnAnnotation(traceKey: string, actor: Actor, unit: { event_id: string | null; family: string }): Promise<boolean> {
  const { count } = await prisma().annotation.deleteMany({ where: { traceKey, eventId: unit.event_id ?? "", family: unit.family, annotatorId: actor.userId } });
  return count > 0;
}
