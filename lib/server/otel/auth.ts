import "server-only";
import { authorize, isOpenMode } from "../auth/access";
import { safeEqual } from "../auth/tokens";
import { otelConfig } from "../config";
import { ApiError } from "../errors";

/**
 * Who may send spans (docs/otlp.md "Access"). Once accounts exist, the same
 * rule as POST /api/traces: an API key with scope `ingest` (or a session
 * that may ingest into the default project, where OTLP traces go). Before
 * that, in open local mode, `BATON_INGEST_TOKEN` (when set) must come as
 * `Authorization: Bearer <token>`; without it the receiver is open, like
 * the rest of Baton in that mode.
 */
export async function authorizeOtlp(request: Request): Promise<void> {
  if (!(await isOpenMode())) {
    await authorize(request, "ingest", "default");
    return;
  }
  const { ingestToken } = otelConfig();
  if (ingestToken === undefined) return;
  const sent = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (sent === undefined || !safeEqual(sent, ingestToken)) {
    throw new ApiError(401, "unauthenticated", "send the ingest token as Authorization: Bearer <BATON_INGEST_TOKEN>");
  }
}
