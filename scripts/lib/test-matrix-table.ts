/**
 * The rows of the route x actor matrix (lib/server/auth/read-matrix.int.test.ts).
 * Answers, one per actor in this order:
 *   anonymous  other(admin of q)  viewer  annotator  padmin(admin of p)  siteadmin  keyNoRead(ingest key)  revokedKey  madeUpKey
 * "pass" = past the access policy (the handler answered a 4xx of its own, e.g. 409).
 * Callers without read access get 404 for a trace or queue, exactly like an unknown id.
 */
import * as adjudications from "@/app/api/adjudications/route";
import * as adminKey from "@/app/api/admin/keys/[id]/route";
import * as adminKeys from "@/app/api/admin/keys/route";
import * as adminUser from "@/app/api/admin/users/[id]/route";
import * as adminUsers from "@/app/api/admin/users/route";
import * as session from "@/app/api/auth/session/route";
import * as setup from "@/app/api/auth/setup/route";
import * as signin from "@/app/api/auth/signin/route";
import * as signout from "@/app/api/auth/signout/route";
import * as dashboard from "@/app/api/dashboard/route";
import * as dashboardTraces from "@/app/api/dashboard/traces/route";
import * as diagnosticsCollusion from "@/app/api/diagnostics/collusion/route";
import * as diagnosticsTrend from "@/app/api/diagnostics/trend/route";
import * as exportAll from "@/app/api/export/route";
import * as heatmapAll from "@/app/api/heatmap/route";
import * as importRoute from "@/app/api/import/route";
import * as metricsAll from "@/app/api/metrics/route";
import * as decisionsAll from "@/app/api/decisions/route";
import * as groupRoute from "@/app/api/groups/[group_id]/route";
import * as otelFlush from "@/app/api/otel/v1/flush/route";
import * as llm from "@/app/api/llm/[...path]/route";
import * as llmFlush from "@/app/api/llm/flush/route";
import * as gatewayUpstream from "@/app/api/projects/[project]/gateway/route";
import * as projectTokenizer from "@/app/api/projects/[project]/tokenizer/route";
import * as otelTraces from "@/app/api/otel/v1/traces/route";
import * as presets from "@/app/api/presets/route";
import * as status from "@/app/api/status/route";
import * as disagreements from "@/app/api/queues/[id]/disagreements/route";
import * as skip from "@/app/api/queues/[id]/items/[itemId]/skip/route";
import * as submit from "@/app/api/queues/[id]/items/[itemId]/submit/route";
import * as next from "@/app/api/queues/[id]/next/route";
import * as queue from "@/app/api/queues/[id]/route";
import * as queues from "@/app/api/queues/route";
import * as annotations from "@/app/api/traces/[id]/annotations/route";
import * as annotationContext from "@/app/api/traces/[id]/annotations/context/route";
import * as annotationValues from "@/app/api/traces/[id]/annotations/values/route";
import * as annotationRows from "@/app/api/traces/[id]/annotations/rows/route";
import * as judgeRun from "@/app/api/judge-runs/[id]/route";
import * as judgeRunCancel from "@/app/api/judge-runs/[id]/cancel/route";
import * as judgeRunResume from "@/app/api/judge-runs/[id]/resume/route";
import * as judgeRunUnits from "@/app/api/judge-runs/[id]/units/route";
import * as judge from "@/app/api/judges/[id]/route";
import * as judgeRuns from "@/app/api/judges/[id]/runs/route";
import * as judgeAgreement from "@/app/api/judges/agreement/route";
import * as judges from "@/app/api/judges/route";
import * as rubrics from "@/app/api/projects/[project]/rubrics/route";
import * as graderFields from "@/app/api/projects/[project]/grader-fields/route";
import * as queuePreview from "@/app/api/queues/preview/route";
import * as credit from "@/app/api/traces/[id]/credit/route";
import * as traceEffects from "@/app/api/traces/[id]/effects/route";
import * as traceInterventions from "@/app/api/traces/[id]/interventions/route";
import * as traceReplays from "@/app/api/traces/[id]/replays/route";
import * as events from "@/app/api/traces/[id]/events/route";
import * as traceExport from "@/app/api/traces/[id]/export/route";
import * as graph from "@/app/api/traces/[id]/graph/route";
import * as traceHeatmap from "@/app/api/traces/[id]/heatmap/route";
import * as traceMetrics from "@/app/api/traces/[id]/metrics/route";
import * as traceDiagnostics from "@/app/api/traces/[id]/diagnostics/route";
import * as traceBlame from "@/app/api/traces/[id]/blame/route";
import * as decisiveError from "@/app/api/traces/[id]/decisive-error/route";
import * as decisiveAdjudication from "@/app/api/traces/[id]/decisive-error/adjudication/route";
import * as blameEvaluation from "@/app/api/blame/evaluation/route";
import * as blameJudge from "@/app/api/blame/judge/route";
import * as datasets from "@/app/api/datasets/route";
import * as datasetPreview from "@/app/api/datasets/preview/route";
import * as dataset from "@/app/api/datasets/[id]/route";
import * as datasetFile from "@/app/api/datasets/[id]/files/[...path]/route";
import * as trace from "@/app/api/traces/[id]/route";
import * as traces from "@/app/api/traces/route";
import { FAMILIES } from "@/lib/trace/types";
import { prisma } from "@/lib/server/db/client";
import { authRequest, exampleTrace, keyFor, makeUser, signIn, type Credentials } from "./test-auth";
import { newEmail, storeTrace, unique, type Fixtures } from "./test-matrix";

export type Call = (fx: Fixtures, creds: Credentials, unknown: boolean) => Promise<Response>;
type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface Row {
  route: string;
  variant?: string;
  call: Call;
  /** the answers (one string for both BATON_PUBLIC_READ settings, or one per setting) */
  expect: string | { "0": string; "1": string };
  /** a path (or body) id: also called with an unknown id, which must answer like "no read access" */
  idRoute?: boolean;
}

const READ = { "0": "404 404 200 200 200 200 404 401 401", "1": "200 200 200 200 200 200 404 401 401" };
const LIST = { "0": "401 200 200 200 200 200 403 401 401", "1": "200 200 200 200 200 200 403 401 401" };
// a list whose answer may be made in the background: 200 when ready, 202 with its state meanwhile
const LIST_OR_ACCEPTED = { "0": "401 pass pass pass pass pass 403 401 401", "1": "pass pass pass pass pass pass 403 401 401" };
// a key acts for its user (a site admin here): for a write its scopes decide, so the ingest key hears 403, not 404
const ANNOTATE = { "0": "404 404 403 201 201 201 403 401 401", "1": "401 403 403 201 201 201 403 401 401" };
const ANNOTATE_200 = { "0": "404 404 403 200 200 200 403 401 401", "1": "401 403 403 200 200 200 403 401 401" };
const ADMIN_OF_P = (ok: string) => ({ "0": `404 404 403 403 ${ok} ${ok} 403 401 401`, "1": `401 403 403 403 ${ok} ${ok} 403 401 401` });
const QUEUE_WORK = (ok: string) => ({ "0": `404 404 403 ${ok} ${ok} ${ok} 403 401 401`, "1": `401 403 403 ${ok} ${ok} ${ok} 403 401 401` });
const SITE_ADMIN = (ok: string) => `401 403 403 403 403 ${ok} 403 401 401`;
const INGEST_P = "401 403 403 201 201 201 201 401 401";
const INGEST_DEFAULT = "401 403 403 403 403 200 200 401 401";
const READ_AND_INGEST = { "0": "404 404 403 pass pass pass 404 401 401", "1": "401 403 403 pass pass pass 404 401 401" };

const missingTrace = "auth-test-no-such-trace";
const call = (handler: unknown, method: string, url: (fx: Fixtures, unknown: boolean) => string, opts: { body?: (fx: Fixtures, unknown: boolean) => unknown; params?: (fx: Fixtures, unknown: boolean) => Record<string, string>; raw?: string; type?: string } = {}): Call =>
  async (fx, creds, unknown) => {
    const request = opts.raw === undefined
      ? authRequest(method, url(fx, unknown), creds, opts.body?.(fx, unknown))
      : new Request(authRequest(method, url(fx, unknown), creds), { body: opts.raw, headers: { ...Object.fromEntries(authRequest(method, "/", creds).headers), "content-type": opts.type ?? "application/json" } });
    return (handler as Handler)(request, { params: Promise.resolve(opts.params?.(fx, unknown) ?? {}) });
  };
const tid = (fx: Fixtures, unknown: boolean) => (unknown ? missingTrace : fx.traceId);
const qid = (fx: Fixtures, unknown: boolean) => String(unknown ? 2147483000 : fx.queueId);
const onTrace = (handler: unknown, method: string, suffix: string, body?: (fx: Fixtures) => unknown): Call =>
  call(handler, method, (fx, u) => `/api/traces/${encodeURIComponent(tid(fx, u))}${suffix}`, { params: (fx, u) => ({ id: tid(fx, u) }), ...(body && { body }) });
const onQueue = (handler: unknown, method: string, suffix: string, body?: unknown): Call =>
  call(handler, method, (fx, u) => `/api/queues/${qid(fx, u)}${suffix.replace("{item}", String(fx.itemId))}`, { params: (fx, u) => ({ id: qid(fx, u), itemId: String(fx.itemId) }), ...(body !== undefined && { body: () => body }) });
const weights = Object.fromEntries(FAMILIES.map((f) => [f, 0.5]));

/** A fresh trace per call for DELETE, so that every actor's answer is about an existing trace. */
const deleteTrace: Call = async (fx, creds, unknown) => {
  const id = unknown ? missingTrace : await storeTrace(fx.actors.siteadmin, "p");
  return trace.DELETE(authRequest("DELETE", `/api/traces/${encodeURIComponent(id)}`, creds), { params: Promise.resolve({ id }) });
};
/** A judge of project p (made directly: the judge routes are what is tested), and a run of it. */
const judgeOfP = async () => {
  const project = await prisma().project.findUniqueOrThrow({ where: { name: "p" } });
  return String((await prisma().judge.create({ data: { projectId: project.id, name: unique("judge"), baseUrl: "http://127.0.0.1:9/v1", model: "m", families: ["step_quality"] } })).id);
};
const runOfP = async () => String((await prisma().judgeRun.create({ data: { judgeId: Number(await judgeOfP()), source: { filter: { trace_ids: [] } }, state: "cancelled" } })).id);
const UNKNOWN_ID = "999999999";
/**
 * A model call through the gateway (its catch-all path is an array). Past the policy it needs the default project's
 * upstream, which the matrix never sets: its answer there (404 while no default project exists, 503 `no_upstream`
 * once one does) is reported as 204, "allowed".
 */
const gatewayCall: Call = async (_fx, creds) => {
  const response = await llm.POST(authRequest("POST", "/api/llm/v1/chat/completions", creds, { model: "m", messages: [] }), { params: Promise.resolve({ path: ["v1", "chat", "completions"] }) });
  if (response.status !== 404 && response.status !== 503) return response;
  const code = ((await response.clone().json()) as { error?: { code?: string } }).error?.code;
  return code === "no_upstream" || (response.status === 404 && code === "not_found") ? new Response(null, { status: 204 }) : response;
};
const onJudge = (handler: unknown, method: string, suffix: string, body?: () => unknown): Call => async (fx, creds, unknown) => {
  const id = unknown ? UNKNOWN_ID : await judgeOfP();
  return (handler as Handler)(authRequest(method, `/api/judges/${id}${suffix}`, creds, body?.()), { params: Promise.resolve({ id }) });
};
const onRun = (handler: unknown, suffix: string): Call => async (fx, creds, unknown) => {
  const id = unknown ? UNKNOWN_ID : await runOfP();
  return (handler as Handler)(authRequest("POST", `/api/judge-runs/${id}${suffix}`, creds), { params: Promise.resolve({ id }) });
};
/** A snapshot nobody has: the same 404 for everyone who may read at all. */
const UNKNOWN_SNAPSHOT = { "0": "401 404 404 404 404 404 403 401 401", "1": "404 404 404 404 404 404 403 401 401" };
const snapshotFile: Call = async (_fx, creds) => datasetFile.GET(authRequest("GET", "/api/datasets/999999999/files/README.md", creds), { params: Promise.resolve({ id: "999999999", path: ["README.md"] }) });
/** Removing one's decisive error needs one: name it, then delete it. */
const undoDecisive: Call = async (fx, creds, unknown) => {
  const id = tid(fx, unknown);
  const context = { params: Promise.resolve({ id }) };
  await decisiveError.PUT(authRequest("PUT", `/api/traces/${encodeURIComponent(id)}/decisive-error`, creds, { event_id: "e1" }), context);
  return decisiveError.DELETE(authRequest("DELETE", `/api/traces/${encodeURIComponent(id)}/decisive-error`, creds), context);
};
/** A judge attributing a trace it cannot find: past the policy, the handler's own 400 ("pass"; no endpoint is called). */
const judgeAttribution: Call = async (fx, creds, unknown) => {
  const id = unknown ? UNKNOWN_ID : await judgeOfP();
  return blameJudge.POST(authRequest("POST", "/api/blame/judge", creds, { judge_id: Number(id), trace_ids: ["auth-test-none"] }), { params: Promise.resolve({}) });
};
/** Undo needs a label of the caller's own: label, then delete it. */
const undoLabel: Call = async (fx, creds, unknown) => {
  const id = tid(fx, unknown);
  const context = { params: Promise.resolve({ id }) };
  await annotations.POST(authRequest("POST", `/api/traces/${encodeURIComponent(id)}/annotations`, creds, { family: "step_quality", value: 0.5 }), context);
  return annotations.DELETE(authRequest("DELETE", `/api/traces/${encodeURIComponent(id)}/annotations?family=step_quality`, creds), context);
};
const onRubrics = (handler: unknown, method: string, body?: unknown, suffix = "rubrics"): Call =>
  call(handler, method, (_fx, u) => `/api/projects/${u ? "auth-test-no-such-project" : "p"}/${suffix}`, { params: (_fx, u) => ({ project: u ? "auth-test-no-such-project" : "p" }), ...(body !== undefined && { body: () => body }) });
const judgeBody = () => ({ project: "p", name: unique("judge"), base_url: "http://127.0.0.1:9/v1", model: "m", families: ["step_quality"] });

/** The fixture trace's group (the example trace has none: it is given one), or a group nobody has. */
const onGroup: Call = async (fx, creds, unknown) => {
  const groupId = unknown ? "auth-test-no-such-group" : "auth-test-group";
  if (!unknown) await prisma().trace.update({ where: { traceId: fx.traceId }, data: { groupId } });
  return groupRoute.GET(authRequest("GET", `/api/groups/${groupId}`, creds), { params: Promise.resolve({ group_id: groupId }) });
};

const userTarget = async () => String((await makeUser("target", { roles: { p: "viewer" } })).id);

export const ROUTES: Row[] = [
  { route: "GET /api/traces/[id]", call: onTrace(trace.GET, "GET", ""), expect: READ, idRoute: true },
  { route: "DELETE /api/traces/[id]", call: deleteTrace, expect: ADMIN_OF_P("200"), idRoute: true },
  { route: "GET /api/traces/[id]/annotations", call: onTrace(annotations.GET, "GET", "/annotations"), expect: READ, idRoute: true },
  { route: "POST /api/traces/[id]/annotations", call: onTrace(annotations.POST, "POST", "/annotations", () => ({ family: "step_quality", value: 0.5 })), expect: ANNOTATE, idRoute: true },
  { route: "DELETE /api/traces/[id]/annotations", call: undoLabel, expect: { "0": "404 404 403 200 200 200 403 401 401", "1": "401 403 403 200 200 200 403 401 401" }, idRoute: true },
  { route: "GET /api/traces/[id]/annotations/context", call: onTrace(annotationContext.GET, "GET", "/annotations/context"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/annotations/values", call: onTrace(annotationValues.GET, "GET", "/annotations/values"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/annotations/rows", call: onTrace(annotationRows.GET, "GET", "/annotations/rows"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/credit", call: onTrace(credit.GET, "GET", "/credit"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/effects", call: onTrace(traceEffects.GET, "GET", "/effects"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/interventions", call: onTrace(traceInterventions.GET, "GET", "/interventions"), expect: READ, idRoute: true },
  // read and ingest both (a replay serves recorded replies back); the matrix's trace has no model calls: past the policy, the handler refuses the call id (400) or the replay (422)
  { route: "POST /api/traces/[id]/interventions", call: onTrace(traceInterventions.POST, "POST", "/interventions", () => ({ call_id: "call-1", edit: { reply: { content: "x" } } })), expect: READ_AND_INGEST, idRoute: true },
  { route: "POST /api/traces/[id]/replays", call: onTrace(traceReplays.POST, "POST", "/replays", () => ({})), expect: READ_AND_INGEST, idRoute: true },
  { route: "GET /api/traces/[id]/events", call: onTrace(events.GET, "GET", "/events"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/export", call: onTrace(traceExport.GET, "GET", "/export"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/graph", variant: "?part=meta", call: onTrace(graph.GET, "GET", "/graph?part=meta"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/graph", variant: "?part=events", call: onTrace(graph.GET, "GET", "/graph?part=events"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/graph", variant: "?part=credit", call: onTrace(graph.GET, "GET", "/graph?part=credit"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/heatmap", call: onTrace(traceHeatmap.GET, "GET", "/heatmap"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/metrics", call: onTrace(traceMetrics.GET, "GET", "/metrics"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/diagnostics", call: onTrace(traceDiagnostics.GET, "GET", "/diagnostics"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/blame", call: onTrace(traceBlame.GET, "GET", "/blame?method=errors"), expect: READ, idRoute: true },
  { route: "GET /api/traces/[id]/decisive-error", call: onTrace(decisiveError.GET, "GET", "/decisive-error"), expect: READ, idRoute: true },
  { route: "PUT /api/traces/[id]/decisive-error", call: onTrace(decisiveError.PUT, "PUT", "/decisive-error", () => ({ event_id: "e1" })), expect: ANNOTATE_200, idRoute: true },
  { route: "DELETE /api/traces/[id]/decisive-error", call: undoDecisive, expect: ANNOTATE_200, idRoute: true },
  { route: "PUT /api/traces/[id]/decisive-error/adjudication", call: onTrace(decisiveAdjudication.PUT, "PUT", "/decisive-error/adjudication", () => ({ event_id: "e1" })), expect: ADMIN_OF_P("200"), idRoute: true },
  { route: "GET /api/blame/evaluation", call: call(blameEvaluation.GET, "GET", () => "/api/blame/evaluation"), expect: LIST_OR_ACCEPTED },
  { route: "DELETE /api/blame/evaluation", call: call(blameEvaluation.DELETE, "DELETE", () => "/api/blame/evaluation?project=p"), expect: "401 403 403 403 200 200 403 401 401" },
  { route: "POST /api/blame/judge", call: judgeAttribution, expect: ADMIN_OF_P("pass"), idRoute: true },
  { route: "GET /api/datasets", call: call(datasets.GET, "GET", () => "/api/datasets"), expect: LIST },
  // a body that fails its checks: past the policy (upload rights somewhere: annotator and up), the handler's own 400, nothing queued
  { route: "POST /api/datasets", call: call(datasets.POST, "POST", () => "/api/datasets", { body: () => ({ name: "m", form: "nope" }) }), expect: "401 pass 403 pass pass pass 403 401 401" },
  // the filter names project p: upload rights there
  { route: "POST /api/datasets", variant: "filter.project p", call: call(datasets.POST, "POST", () => "/api/datasets", { body: () => ({ name: "m", form: "nope", filter: { project: "p" } }) }), expect: "401 403 403 pass pass pass 403 401 401" },
  // the preview: the snapshot's rules (a counted body answers 200; this one fails its checks past the policy)
  { route: "POST /api/datasets/preview", call: call(datasetPreview.POST, "POST", () => "/api/datasets/preview", { body: () => ({ form: "nope" }) }), expect: "401 pass 403 pass pass pass 403 401 401" },
  { route: "POST /api/datasets/preview", variant: "filter.project p", call: call(datasetPreview.POST, "POST", () => "/api/datasets/preview", { body: () => ({ form: "nope", filter: { project: "p" } }) }), expect: "401 403 403 pass pass pass 403 401 401" },
  { route: "GET /api/datasets/[id]", variant: "unknown snapshot", call: call(dataset.GET, "GET", () => "/api/datasets/999999999", { params: () => ({ id: "999999999" }) }), expect: UNKNOWN_SNAPSHOT },
  { route: "GET /api/datasets/[id]/files/[...path]", variant: "unknown snapshot", call: snapshotFile, expect: UNKNOWN_SNAPSHOT },
  // deleting needs upload rights somewhere (annotator and up): the rest hear 401/403 before the id is looked at
  { route: "DELETE /api/datasets/[id]", variant: "unknown snapshot", call: call(dataset.DELETE, "DELETE", () => "/api/datasets/999999999", { params: () => ({ id: "999999999" }) }), expect: "401 404 403 404 404 404 403 401 401" },
  { route: "POST /api/adjudications", call: call(adjudications.POST, "POST", () => "/api/adjudications", { body: (fx, u) => ({ trace_id: tid(fx, u), event_id: null, family: "step_quality", value: 0.5 }) }), expect: ADMIN_OF_P("201"), idRoute: true },
  { route: "GET /api/traces", call: call(traces.GET, "GET", () => "/api/traces"), expect: LIST },
  { route: "POST /api/traces", call: call(traces.POST, "POST", () => "/api/traces", { body: () => exampleTrace(unique("i").slice(10), "p") }), expect: INGEST_P },
  { route: "POST /api/import", call: call(importRoute.POST, "POST", () => "/api/import?name=t.json", { body: () => exampleTrace(unique("i").slice(10), "p") }), expect: INGEST_P },
  { route: "GET /api/metrics", call: call(metricsAll.GET, "GET", () => "/api/metrics"), expect: LIST },
  { route: "GET /api/decisions", call: call(decisionsAll.GET, "GET", () => "/api/decisions"), expect: LIST },
  // a group id is a filter value like ?group_id= of the lists: 401/403 before it is looked at, 404 when no rollout is readable
  { route: "GET /api/groups/[group_id]", call: onGroup, expect: { "0": "401 404 200 200 200 200 403 401 401", "1": "200 200 200 200 200 200 403 401 401" } },
  { route: "GET /api/groups/[group_id]", variant: "unknown group", call: (fx, creds) => onGroup(fx, creds, true), expect: { "0": "401 404 404 404 404 404 403 401 401", "1": "404 404 404 404 404 404 403 401 401" } },
  { route: "GET /api/dashboard", call: call(dashboard.GET, "GET", () => "/api/dashboard"), expect: LIST },
  { route: "GET /api/dashboard/traces", call: call(dashboardTraces.GET, "GET", () => "/api/dashboard/traces?bar=e1:1"), expect: LIST },
  { route: "GET /api/heatmap", call: call(heatmapAll.GET, "GET", () => "/api/heatmap"), expect: LIST },
  { route: "GET /api/export", call: call(exportAll.GET, "GET", () => "/api/export?project=p"), expect: LIST },
  { route: "GET /api/presets", call: call(presets.GET, "GET", () => "/api/presets"), expect: LIST },
  { route: "GET /api/status", call: call(status.GET, "GET", () => "/api/status"), expect: LIST },
  { route: "POST /api/presets", call: call(presets.POST, "POST", () => "/api/presets", { body: () => ({ name: unique("preset"), weights }) }), expect: "401 201 403 403 201 201 403 401 401" },
  { route: "GET /api/queues", call: call(queues.GET, "GET", () => "/api/queues"), expect: LIST },
  { route: "POST /api/queues", call: call(queues.POST, "POST", () => "/api/queues", { body: (fx) => ({ project: "p", name: unique("q"), families: ["step_quality"], assignees: ["nobody@auth-test.baton"], filter: { trace_ids: [fx.traceId] } }) }), expect: "401 403 403 403 pass pass 403 401 401" },
  { route: "GET /api/queues/[id]", call: onQueue(queue.GET, "GET", ""), expect: READ, idRoute: true },
  { route: "PATCH /api/queues/[id]", call: onQueue(queue.PATCH, "PATCH", "", { blind: false }), expect: ADMIN_OF_P("200"), idRoute: true },
  { route: "POST /api/queues/preview", call: call(queuePreview.POST, "POST", () => "/api/queues/preview", { body: (fx) => ({ project: "p", filter: { trace_ids: [fx.traceId] } }) }), expect: "401 403 403 403 200 200 403 401 401" },
  // project-wide settings: project names are not secret, so these answer 401/403 like the list routes
  { route: "GET /api/projects/[project]/rubrics", call: onRubrics(rubrics.GET, "GET"), expect: { "0": "401 403 200 200 200 200 403 401 401", "1": "200 200 200 200 200 200 403 401 401" } },
  { route: "PATCH /api/projects/[project]/rubrics", call: onRubrics(rubrics.PATCH, "PATCH", { rubrics: [] }), expect: "401 403 403 403 200 200 403 401 401" },
  { route: "GET /api/projects/[project]/grader-fields", call: onRubrics(graderFields.GET, "GET", undefined, "grader-fields"), expect: { "0": "401 403 200 200 200 200 403 401 401", "1": "200 200 200 200 200 200 403 401 401" } },
  { route: "PATCH /api/projects/[project]/grader-fields", call: onRubrics(graderFields.PATCH, "PATCH", { fields: [] }, "grader-fields"), expect: "401 403 403 403 200 200 403 401 401" },
  { route: "GET /api/judges", call: call(judges.GET, "GET", () => "/api/judges"), expect: "401 200 403 403 200 200 403 401 401" },
  { route: "POST /api/judges", call: call(judges.POST, "POST", () => "/api/judges", { body: judgeBody }), expect: "401 403 403 403 201 201 403 401 401" },
  { route: "GET /api/judges/agreement", call: call(judgeAgreement.GET, "GET", () => "/api/judges/agreement"), expect: LIST },
  { route: "GET /api/diagnostics/collusion", call: call(diagnosticsCollusion.GET, "GET", () => "/api/diagnostics/collusion"), expect: LIST },
  { route: "GET /api/diagnostics/trend", call: call(diagnosticsTrend.GET, "GET", () => "/api/diagnostics/trend"), expect: LIST },
  { route: "GET /api/judges/[id]", call: onJudge(judge.GET, "GET", ""), expect: ADMIN_OF_P("200"), idRoute: true },
  { route: "PATCH /api/judges/[id]", call: onJudge(judge.PATCH, "PATCH", "", () => ({ temperature: 0.5 })), expect: ADMIN_OF_P("200"), idRoute: true },
  { route: "DELETE /api/judges/[id]", call: onJudge(judge.DELETE, "DELETE", ""), expect: ADMIN_OF_P("204"), idRoute: true },
  { route: "GET /api/judges/[id]/runs", call: onJudge(judgeRuns.GET, "GET", "/runs"), expect: ADMIN_OF_P("200"), idRoute: true },
  { route: "POST /api/judges/[id]/runs", call: onJudge(judgeRuns.POST, "POST", "/runs", () => ({ filter: { trace_ids: ["auth-test-none"] } })), expect: ADMIN_OF_P("201"), idRoute: true },
  { route: "GET /api/judge-runs/[id]", call: async (fx, creds, unknown) => { const id = unknown ? UNKNOWN_ID : await runOfP(); return judgeRun.GET(authRequest("GET", `/api/judge-runs/${id}`, creds), { params: Promise.resolve({ id }) }); }, expect: ADMIN_OF_P("200"), idRoute: true },
  { route: "GET /api/judge-runs/[id]/units", call: async (fx, creds, unknown) => { const id = unknown ? UNKNOWN_ID : await runOfP(); return judgeRunUnits.GET(authRequest("GET", `/api/judge-runs/${id}/units`, creds), { params: Promise.resolve({ id }) }); }, expect: ADMIN_OF_P("200"), idRoute: true },
  { route: "POST /api/judge-runs/[id]/cancel", call: onRun(judgeRunCancel.POST, "/cancel"), expect: ADMIN_OF_P("200"), idRoute: true },
  { route: "POST /api/judge-runs/[id]/resume", call: onRun(judgeRunResume.POST, "/resume"), expect: ADMIN_OF_P("200"), idRoute: true },
  { route: "GET /api/queues/[id]/disagreements", call: onQueue(disagreements.GET, "GET", "/disagreements"), expect: ADMIN_OF_P("200"), idRoute: true },
  { route: "POST /api/queues/[id]/next", call: onQueue(next.POST, "POST", "/next"), expect: QUEUE_WORK("200"), idRoute: true },
  { route: "POST /api/queues/[id]/items/[itemId]/skip", call: onQueue(skip.POST, "POST", "/items/{item}/skip"), expect: QUEUE_WORK("pass"), idRoute: true },
  { route: "POST /api/queues/[id]/items/[itemId]/submit", call: onQueue(submit.POST, "POST", "/items/{item}/submit", { labels: [{ family: "step_quality", value: 0.5 }] }), expect: QUEUE_WORK("pass"), idRoute: true },
  { route: "POST /api/otel/v1/traces", call: call(otelTraces.POST, "POST", () => "/api/otel/v1/traces", { body: () => ({ resourceSpans: [] }) }), expect: INGEST_DEFAULT },
  // the model gateway: an ingest key (or a session that may ingest into the default project); a session's yes is never reused for another caller
  { route: "POST /api/llm/[...path]", call: gatewayCall, expect: "401 403 403 403 403 204 204 401 401" },
  { route: "POST /api/llm/flush", call: call(llmFlush.POST, "POST", () => "/api/llm/flush", { body: () => ({ run_key: "matrix" }) }), expect: INGEST_DEFAULT },
  { route: "GET /api/projects/[project]/gateway", call: call(gatewayUpstream.GET, "GET", () => "/api/projects/p/gateway", { params: () => ({ project: "p" }) }), expect: "401 403 403 403 200 200 403 401 401" },
  { route: "PUT /api/projects/[project]/gateway", call: call(gatewayUpstream.PUT, "PUT", () => "/api/projects/p/gateway", { params: () => ({ project: "p" }), body: () => ({ base_url: "not a url" }) }), expect: "401 403 403 403 pass pass 403 401 401" },
  { route: "GET /api/projects/[project]/tokenizer", call: call(projectTokenizer.GET, "GET", () => "/api/projects/p/tokenizer", { params: () => ({ project: "p" }) }), expect: "401 403 403 403 200 200 403 401 401" },
  { route: "PUT /api/projects/[project]/tokenizer", call: call(projectTokenizer.PUT, "PUT", () => "/api/projects/p/tokenizer", { params: () => ({ project: "p" }), body: () => ({ name: "x", tokenizer: { model: { type: "Nope" } } }) }), expect: "401 403 403 403 pass pass 403 401 401" },
  { route: "DELETE /api/projects/[project]/tokenizer", call: call(projectTokenizer.DELETE, "DELETE", () => "/api/projects/p/tokenizer", { params: () => ({ project: "p" }) }), expect: "401 403 403 403 204 204 403 401 401" },
  { route: "DELETE /api/projects/[project]/gateway", call: call(gatewayUpstream.DELETE, "DELETE", () => "/api/projects/p/gateway", { params: () => ({ project: "p" }) }), expect: "401 403 403 403 204 204 403 401 401" },
  { route: "POST /api/otel/v1/flush", call: call(otelFlush.POST, "POST", () => "/api/otel/v1/flush", { body: () => ({ trace_id: "0".repeat(32) }) }), expect: INGEST_DEFAULT },
  { route: "GET /api/admin/users", call: call(adminUsers.GET, "GET", () => "/api/admin/users"), expect: SITE_ADMIN("200") },
  { route: "POST /api/admin/users", call: call(adminUsers.POST, "POST", () => "/api/admin/users", { body: () => ({ email: newEmail(), name: "N", password: "long enough" }) }), expect: SITE_ADMIN("201") },
  { route: "PATCH /api/admin/users/[id]", call: async (fx, creds) => { const id = await userTarget(); return adminUser.PATCH(authRequest("PATCH", `/api/admin/users/${id}`, creds, { name: "R" }), { params: Promise.resolve({ id }) }); }, expect: SITE_ADMIN("200") },
  { route: "DELETE /api/admin/users/[id]", call: async (fx, creds) => { const id = await userTarget(); return adminUser.DELETE(authRequest("DELETE", `/api/admin/users/${id}`, creds), { params: Promise.resolve({ id }) }); }, expect: SITE_ADMIN("200") },
  { route: "GET /api/admin/keys", call: call(adminKeys.GET, "GET", () => "/api/admin/keys"), expect: SITE_ADMIN("200") },
  { route: "POST /api/admin/keys", call: call(adminKeys.POST, "POST", () => "/api/admin/keys", { body: () => ({ name: "k", scopes: ["read"] }) }), expect: SITE_ADMIN("201") },
  { route: "DELETE /api/admin/keys/[id]", call: async (fx, creds) => { const id = String((await keyFor(await makeUser("keyowner"), ["read"])).id); return adminKey.DELETE(authRequest("DELETE", `/api/admin/keys/${id}`, creds), { params: Promise.resolve({ id }) }); }, expect: SITE_ADMIN("200") },
  // public by nature: the session route reads only the cookie; setup needs its one-time token; a wrong password is 401 for everyone
  { route: "GET /api/auth/session", call: call(session.GET, "GET", () => "/api/auth/session"), expect: "200 200 200 200 200 200 200 200 200" },
  { route: "POST /api/auth/setup", call: call(setup.POST, "POST", () => "/api/auth/setup", { body: () => ({ token: "x".repeat(43), email: newEmail(), name: "N", password: "long enough" }) }), expect: "403 403 403 403 403 403 403 403 403" },
  { route: "POST /api/auth/signin", call: async (fx, creds) => signin.POST(authRequest("POST", "/api/auth/signin", creds, { email: newEmail(), password: "wrong password" }, { "x-forwarded-for": `198.51.100.${Math.floor(Math.random() * 250)}` }), { params: Promise.resolve({}) }), expect: "401 401 401 401 401 401 401 401 401" },
  // signing out ends the session it is sent with: a throwaway session in place of the actor's own
  { route: "POST /api/auth/signout", call: async (fx, creds) => signout.POST(authRequest("POST", "/api/auth/signout", creds.cookie ? await signIn(await makeUser("leaving")) : creds), { params: Promise.resolve({}) }), expect: "200 200 200 200 200 200 200 200 200" },
];

/** Every page and the guard it must call (checked in its source, and the guards' answers per visitor tested). */
export const PAGES: Record<string, "trace" | "queue" | "list" | "project-admin" | "project-admin-of" | "site-admin" | "public"> = {
  "/": "list",
  "/dashboard": "list",
  "/decisions": "list",
  "/groups/[id]": "list",
  "/heatmaps": "list",
  "/attribution": "list",
  "/datasets": "list",
  "/queues": "list",
  "/traces/[id]": "trace",
  "/traces/[id]/graph": "trace",
  "/traces/[id]/heatmap": "trace",
  "/traces/[id]/label": "trace",
  "/queues/[id]": "queue",
  "/queues/[id]/work": "queue",
  "/queues/[id]/adjudicate": "queue",
  "/queues/new": "project-admin",
  "/admin": "site-admin",
  "/judges": "project-admin",
  "/judges/runs/[id]": "project-admin-of",
  "/rubrics": "trace",
  "/compare": "trace",
  // no data of their own: they draw what the (guarded) API answers, or static text
  "/docs": "public",
  "/docs/[name]": "public",
  "/present": "public",
  "/upload": "public",
  // a redirect to the trace list ("/", guarded there)
  "/traces": "public",
  "/bench/baseline": "public",
  "/setup": "public",
  "/signin": "public",
};
