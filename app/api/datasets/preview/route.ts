import { previewDataset as previewContract } from "@/lib/api/contracts/datasets";
import { previewDataset } from "@/lib/server/datasets/preview";
import { checkPreviewRequest } from "@/lib/server/datasets/request";
import { snapshotScope } from "@/lib/server/datasets/scope";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * POST /api/datasets/preview: the body of `POST /api/datasets` (the name
 * may be left out), with the same access rules (snapshotScope: 401/403
 * before the body is checked) and the same checks (a 400 lists each problem
 * with its path) -> 200 `{traces, traces_kept, rows, row_unit, skipped:
 * {without_calls, no_group}, form, method}`: what a snapshot taken now would
 * hold, counted in SQL over the projects it would hold. Writes nothing.
 */
export const POST = endpoint(previewContract, {
  ownBody: true,
  handle: async ({ request }) => {
    const { body, projects } = await snapshotScope(request);
    return previewDataset(await checkPreviewRequest(body), projects);
  },
});
