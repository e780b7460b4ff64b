import type pg from "pg";
import type { ExtendedLabels } from "@/lib/trace/extended-labels";

/**
 * Restores the human labels of imported extended traces (SPEC.md section 6)
 * inside the ingest transaction. Each annotator is kept distinct by name, as
 * an imported person (users.imported, no password, so never able to sign in;
 * email `imported:<name>` keeps one record per name), never as an account of
 * this instance even when one has that name: an import cannot label, adjudicate
 * or overwrite a label in an account's name. Who may import adjudications at
 * all is the ingest path's rule (ingestRecords' mayAdjudicate).
 * Values, comments and times are kept as they were exported, so that
 * export -> import -> export is the identity.
 */
export async function restoreLabels(client: pg.PoolClient, items: readonly { traceKey: string; labels: ExtendedLabels }[]): Promise<void> {
  if (items.length === 0) return;
  const names = new Set<string>();
  for (const { labels } of items) {
    for (const a of labels.annotations) names.add(a.annotator);
    for (const a of labels.adjudications) if (a.adjudicator !== null) names.add(a.adjudicator);
  }
  const ids = await annotatorIds(client, [...names]);
  for (const { traceKey, labels } of items) {
    for (const a of labels.annotations) {
      const row = await client.query<{ id: number }>(
        `INSERT INTO annotations (trace_key, event_id, family, annotator_id, value, comment, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
         ON CONFLICT (trace_key, event_id, family, annotator_id) DO UPDATE
           SET value = EXCLUDED.value, comment = EXCLUDED.comment, updated_at = EXCLUDED.updated_at
         RETURNING id`,
        [traceKey, a.event_id ?? "", a.family, ids.get(a.annotator)!, a.value, a.comment, a.updated_at],
      );
      await client.query("INSERT INTO annotation_revisions (annotation_id, value, comment, created_at) VALUES ($1, $2, $3, $4)", [row.rows[0]!.id, a.value, a.comment, a.updated_at]);
    }
    for (const a of labels.adjudications) {
      await client.query(
        `INSERT INTO adjudications (trace_key, event_id, family, value, adjudicator_id, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (trace_key, event_id, family) DO UPDATE SET value = EXCLUDED.value, adjudicator_id = EXCLUDED.adjudicator_id, updated_at = EXCLUDED.updated_at`,
        [traceKey, a.event_id ?? "", a.family, a.value, a.adjudicator === null ? 0 : ids.get(a.adjudicator)!, a.updated_at],
      );
    }
  }
}

async function annotatorIds(client: pg.PoolClient, names: string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (names.length === 0) return ids;
  await client.query(
    `INSERT INTO users (email, name, imported) SELECT 'imported:' || n, n, true FROM unnest($1::text[]) AS n ON CONFLICT (email) DO NOTHING`,
    [names],
  );
  const imported = await client.query<{ name: string; id: number }>("SELECT name, id FROM users WHERE imported AND email = ANY($1::text[])", [names.map((n) => `imported:${n}`)]);
  for (const r of imported.rows) ids.set(r.name, r.id);
  return ids;
}
