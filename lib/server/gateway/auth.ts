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
 */
export async function authorizeGateway(request: Request, project: string): Promise<void> {
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
