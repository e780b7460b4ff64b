import type pg from "pg";
import type { ExtendedDecisiveErrors } from "@/lib/trace/decisive-errors";

/**
 * Restores the decisive errors an imported trace carries (SPEC.md sections
 * 5 and 6: an extended export, or a dataset's ground truth such as
 * Who&When's mistake step) inside the ingest transaction. Imported labels
 * never act as an account here: each name becomes an imported annotator
 * (users.imported, no password, email `imported:<name>`), one per name, so
 * that agreement still sees them as distinct people. Times are kept as
 * exported, so that export -> import -> export is the identity.
 */
export async function restoreDecisiveErrors(client: pg.PoolClient, items: readonly { traceKey: string; labels: ExtendedDecisiveErrors }[]): Promise<void> {
  const withErrors = items.filter((i) => i.labels.decisive_errors.length > 0 || i.labels.decisive_error_adjudication !== null);
  if (withErrors.length === 0) return;
  const names = new Set<string>();
  for (const { labels } of withErrors) {
    for (const d of labels.decisive_errors) names.add(d.annotator);
    if (labels.decisive_error_adjudication?.adjudicator) names.add(labels.decisive_error_adjudication.adjudicator);
  }
  const ids = await importedAnnotatorIds(client, [...names]);
  for (const { traceKey, labels } of withErrors) {
    for (const d of labels.decisive_errors) {
      const row = await client.query<{ id: number; updated_at: Date }>(
        `INSERT INTO decisive_errors (trace_key, event_id, agent, reason, annotator_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, COALESCE($6::timestamptz, now()), COALESCE($6::timestamptz, now()))
         ON CONFLICT (trace_key, annotator_id) DO UPDATE
           SET event_id = EXCLUDED.event_id, agent = EXCLUDED.agent, reason = EXCLUDED.reason, updated_at = EXCLUDED.updated_at
         RETURNING id, updated_at`,
        [traceKey, d.event_id, d.agent, d.reason, ids.get(d.annotator)!, d.updated_at ?? null],
      );
      await client.query("INSERT INTO decisive_error_revisions (decisive_error_id, event_id, agent, reason, created_at) VALUES ($1, $2, $3, $4, $5)", [row.rows[0]!.id, d.event_id, d.agent, d.reason, row.rows[0]!.updated_at]);
    }
    const adj = labels.decisive_error_adjudication;
    if (adj) {
      await client.query(
        `INSERT INTO decisive_error_adjudications (trace_key, event_id, agent, reason, adjudicator_id, updated_at) VALUES ($1, $2, $3, $4, $5, COALESCE($6::timestamptz, now()))
         ON CONFLICT (trace_key) DO UPDATE SET event_id = EXCLUDED.event_id, agent = EXCLUDED.agent, reason = EXCLUDED.reason, adjudicator_id = EXCLUDED.adjudicator_id, updated_at = EXCLUDED.updated_at`,
        [traceKey, adj.event_id, adj.agent, adj.reason, adj.adjudicator === null ? 0 : ids.get(adj.adjudicator)!, adj.updated_at ?? null],
      );
    }
  }
}

/** The imported annotator of each name, created when missing. */
async function importedAnnotatorIds(client: pg.PoolClient, names: string[]): Promise<Map<string, number>> {
  await client.query(`INSERT INTO users (email, name, imported) SELECT 'imported:' || n, n, true FROM unnest($1::text[]) AS n ON CONFLICT (email) DO NOTHING`, [names]);
  const { rows } = await client.query<{ name: string; id: number }>("SELECT name, id FROM users WHERE imported AND email = ANY($1::text[])", [names.map((n) => `imported:${n}`)]);
  return new Map(rows.map((r) => [r.name, r.id]));
}
