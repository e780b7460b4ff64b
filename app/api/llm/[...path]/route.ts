import { GATEWAY_HEADERS } from "@/lib/api/gateway";
import { decodeSegment } from "@/lib/api/text";
import { cleanName, parseGatewayPath } from "@/lib/gateway/request";
import { ApiError } from "@/lib/server/errors";
import { authorizeGateway } from "@/lib/server/gateway/auth";
import { forwardCall } from "@/lib/server/gateway/forward";
import { ensureGatewaySweeper, kickGatewaySweep } from "@/lib/server/gateway/sweeper";
import { liveUpstream } from "@/lib/server/gateway/upstreams";
import { replayCall } from "@/lib/server/replay/runs";
import { errorResponse, maxBodyBytes, parseJsonText, readBodyLimited, requestRefusal } from "@/lib/server/http";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ path: string[] }> };

/**
 * POST /api/llm[/project/<name>][/run/<key>]/v1/chat/completions and
 * .../v1/responses: the recording gateway (docs/gateway.md). OpenAI-
 * compatible: the upstream's reply (or error) as it came, streamed chunk
 * by chunk; the call is recorded off the client's path. Not wrapped in
 * route(): a model call's answer is the upstream's, with nothing stamped on it.
 */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  try {
    // /api/llm/v1/* is outside proxy.ts (model calls stream their bodies): its host, cross-site and body-type rules apply here
    const refused = requestRefusal(request);
    if (refused) throw refused;
    const segments = (await params).path.map(decodeSegment);
    const path = segments.includes(null) ? null : parseGatewayPath(segments as string[]);
    if (path === null) throw new ApiError(404, "not_found", "no such gateway endpoint: use /api/llm[/run/<key>]/v1/chat/completions or /v1/responses");
    const project = cleanName(path.project ?? request.headers.get(GATEWAY_HEADERS.project)) ?? "default";
    await authorizeGateway(request, project);
    ensureGatewaySweeper();
    kickGatewaySweep();
    const parsed = parseJsonText(await readBodyLimited(request, maxBodyBytes()));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new ApiError(400, "invalid_input", "the body must be a JSON object");
    let body = parsed as Record<string, unknown>;
    const runKey = cleanName(path.runKey) ?? cleanName(request.headers.get(GATEWAY_HEADERS.run));
    // a replay's run key (docs/replay.md): answered from the record while the program repeats itself
    const replayed = runKey === null ? { kind: "none" as const } : await replayCall({ project, runKey, api: path.api, request, body });
    if (replayed.kind === "served") return replayed.response;
    if (replayed.kind === "live") body = replayed.body;
    const upstream = await liveUpstream(project);
    if (upstream === null) throw new ApiError(503, "no_upstream", `project "${project}" has no upstream model server: an admin sets one with PUT /api/projects/${project}/gateway`);
    return await forwardCall({ api: path.api, upstream, runKey, request, body });
  } catch (error) {
    return errorResponse(error);
  }
}
