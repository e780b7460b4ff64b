import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import type { RunUnit, RunUnitsPage } from "@/lib/api/contracts/judges";
import { prisma } from "../db/client";

/**
 * What a run did with each of its units: its state and the judge's latest
 * answer for it in this run (value and reason, or the failure and the raw
 * reply that could not be read), so that a person can see which units
 * failed and what the model said.
 */
export const UNIT_STATES = ["failed", "active", "pending", "done"] as const;
export type UnitState = (typeof UNIT_STATES)[number];

/** One page of a run's units: failed first, then active, pending and done; within a state by trace, event and family. */
export async function runUnits(runId: number, opts: { state?: UnitState; offset: number; limit: number }): Promise<RunUnitsPage> {
  const stateFilter = opts.state ? Prisma.sql`AND u.state = ${opts.state}` : Prisma.empty;
  const [rows, counts] = await Promise.all([
    prisma().$queryRaw<RunUnit[]>`
      SELECT u.trace_key AS trace_id, NULLIF(u.event_id, '') AS event_id, u.family, u.state, l.value, l.reason, l.raw, l.error, l.model,
             l.latency_ms, l.tokens_in, l.tokens_out, to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS answered_at
      FROM judge_units u
      LEFT JOIN LATERAL (
        SELECT value, reason, raw, error, model, latency_ms, tokens_in, tokens_out, created_at FROM judge_labels l
        WHERE l.run_id = u.run_id AND l.trace_key = u.trace_key AND l.event_id = u.event_id AND l.family = u.family
        ORDER BY l.id DESC LIMIT 1
      ) l ON true
      WHERE u.run_id = ${runId} ${stateFilter}
      ORDER BY array_position(${[...UNIT_STATES]}::text[], u.state), u.trace_key, u.event_id, u.family
      OFFSET ${opts.offset} LIMIT ${opts.limit}`,
    prisma().judgeUnit.groupBy({ by: ["state"], where: { runId }, _count: { _all: true } }),
  ]);
  const byState = Object.fromEntries(UNIT_STATES.map((s) => [s, 0])) as Record<UnitState, number>;
  for (const c of counts) if ((UNIT_STATES as readonly string[]).includes(c.state)) byState[c.state as UnitState] = c._count._all;
  return {
    units: rows,
    total: opts.state ? byState[opts.state] : Object.values(byState).reduce((a, b) => a + b, 0),
    counts: byState,
    offset: opts.offset,
    limit: opts.limit,
  };
}
