import { readableProjects } from "@/lib/server/auth/access";
import { databaseStatus } from "@/lib/server/db/read";
import { gatewayCountersNow } from "@/lib/server/gateway/recorder";
import { status } from "@/lib/api/contracts/workspace";
import { endpoint, reply } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * GET /api/status: the app process that answered (one of BATON_PROCESSES)
 * and, for that process, how many requests each database served and what
 * it last learnt of each read replica, and the gateway's counters: calls
 * forwarded, recorded, lost (the database refused them), pending, upstream
 * errors (docs/api.md).
 */
export const GET = endpoint(status, {
  access: (request) => readableProjects(request),
  handle: () =>
    Promise.resolve(
      reply(
        {
          process: { pid: process.pid, index: Number(process.env.BATON_PROCESS_INDEX ?? 0), uptime_s: Math.round(process.uptime()) },
          databases: databaseStatus(),
          gateway: gatewayCountersNow(),
        },
        { headers: { "cache-control": "no-store" } },
      ),
    ),
});
