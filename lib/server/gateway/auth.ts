import "server-only";
import { authorize, isOpenMode } from "../auth/access";
import { safeEqual } from "../auth/tokens";
import { otelConfig } from "../config";
import { ApiError } from "../errors";

/**
 * Who may call models through the gateway: as for the OTLP receiver
 * (lib/server/otel/auth.ts), an API key with scope `ingest` in the project
 * the call is recorded in (`Authorization: Bearer baton_…`, which is what an
 * OpenAI client sends as its API key). In open local mode,
 * `BATON_INGEST_TOKEN` when set, else anyone.
 *
 * A call is latency its client waits for: an answer is kept for
 * ALLOWED_FOR_MS per API key and project (only a yes; a no is asked again
 * each time), so that a run's calls do not each wait on the database. A
 * revoked key or a removed role stops calls within that time. Only a
 * request that carries a key is answered from it. One without a key is
 * allowed only in open local mode with no ingest token set; that yes is
 * kept for the same time (an admin created in that second lets key-less
 * calls through until it passes), and is never used for a request that
 * carries a key.
 */
const ALLOWED_FOR_MS = 1000;
const allowed = new Map<string, number>();
/** Until when a request without a key is let through: open mode was seen (only a yes is kept). */
let openUntil = 0;

export async function authorizeGateway(request: Request, project: string): Promise<void> {
  const authorization = request.headers.get("authorization");
  if (!authorization) {
    // no key: allowed only in open local mode without an ingest token; that yes is kept as a key's is
    if (openUntil > Date.now()) return;
    if (otelConfig().ingestToken === undefined && (await isOpenMode())) {
      openUntil = Date.now() + ALLOWED_FOR_MS;
      return;
    }
    return decide(request, project);
  }
  const key = `${project}\n${authorization}`;
  const now = Date.now();
  if ((allowed.get(key) ?? 0) > now) return;
  await decide(request, project);
  if (allowed.size > 10_000) allowed.clear();
  allowed.set(key, now + ALLOWED_FOR_MS);
}

async function decide(request: Request, project: string): Promise<void> {
  if (!(await isOpenMode())) {
    await authorize(request, "ingest", project);
    return;
  }
  const { ingestToken } = otelConfig();
  if (ingestToken === undefined) return;
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (sent === undefined || !safeEqual(sent, ingestToken)) {
    throw new ApiError(401, "unauthenticated", "send the ingest token as the API key (Authorization: Bearer <BATON_INGEST_TOKEN>)");
  }
}
