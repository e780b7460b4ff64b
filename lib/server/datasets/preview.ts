import "server-only";
import { GROUP_METHODS, previewOf, type DatasetPreview, type SelectionCounts } from "@/lib/datasets/preview";
import { Prisma } from "@/lib/generated/prisma/client";
import { reader } from "../db/read";
import { listConditions, whereOf } from "../queries/trace-search";
import type { CheckedPreview } from "./request";
import { isTrainerForm } from "@/lib/export/trainers";

/**
 * `POST /api/datasets/preview`: what a snapshot of the request would hold,
 * from one query of counts over the matching traces (the build's own
 * selection, listConditions): their events and model calls, and the size
 * of each one's group (every trace sharing its group_id, as the build's
 * grpo and gigpo read it), each read only when the form and method need
 * it. Nothing is loaded or computed per trace (100,001 matching traces with
 * 150,000 model calls: about a second on a 2-core machine, the group-relative
 * transitions; see docs/api.md).
 */
export async function previewDataset(checked: CheckedPreview, readable: string[] | null): Promise<DatasetPreview & { form: string; method: string }> {
  const method = checked.export.credit.method;
  const form = checked.request.form;
  // only what the form and method read: a group's size for grpo and gigpo, model calls for transitions and the trainers' forms
  const perCall = form === "transitions" || isTrainerForm(form);
  const needsGroup = (form === "rows" || perCall) && GROUP_METHODS.includes(method);
  const needsCalls = perCall;
  const db = (await reader()).prisma;
  const [row] = await db.$queryRaw<Record<keyof SelectionCounts, number>[]>(Prisma.sql`
    WITH s AS (SELECT t.id, t.group_id, t.event_count, (t.metadata->'counterfactual'->>'of') IS NOT NULL AS replay FROM traces t ${whereOf(listConditions(checked.filter, readable, { count: true }))}),
    g AS (${needsGroup ? Prisma.sql`SELECT group_id, count(*) AS n FROM traces WHERE group_id IN (SELECT group_id FROM s WHERE group_id IS NOT NULL) GROUP BY group_id` : Prisma.sql`SELECT NULL::text AS group_id, 0::bigint AS n WHERE false`}),
    c AS (${needsCalls ? Prisma.sql`SELECT m.trace_id, count(*) AS n FROM model_calls m WHERE m.trace_id IN (SELECT id FROM s) GROUP BY m.trace_id` : Prisma.sql`SELECT NULL::int AS trace_id, 0::bigint AS n WHERE false`}),
    x AS (SELECT ${needsGroup ? Prisma.sql`coalesce(g.n, 0) >= 2` : Prisma.sql`true`} AS grouped, coalesce(c.n, 0) AS calls, s.event_count AS events, s.replay
          FROM s LEFT JOIN g ON g.group_id = s.group_id LEFT JOIN c ON c.trace_id = s.id)
    SELECT count(*)::float8 AS traces,
      (count(*) FILTER (WHERE NOT grouped))::float8 AS ungrouped,
      (count(*) FILTER (WHERE grouped AND calls = 0))::float8 AS grouped_without_calls,
      (count(*) FILTER (WHERE calls = 0))::float8 AS without_calls,
      coalesce(sum(calls), 0)::float8 AS calls,
      coalesce(sum(calls) FILTER (WHERE grouped), 0)::float8 AS grouped_calls,
      coalesce(sum(events), 0)::float8 AS events,
      coalesce(sum(events) FILTER (WHERE grouped), 0)::float8 AS grouped_events,
      (count(*) FILTER (WHERE replay))::float8 AS replays
    FROM x`);
  return { ...previewOf(row!, form, method), form, method };
}
