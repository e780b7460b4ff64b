import { previewQueue as previewContract } from "@/lib/api/contracts/queues";
import { authorize } from "@/lib/server/auth/access";
import { endpoint } from "@/lib/server/endpoint";
import { previewQueue } from "@/lib/server/queues/edit";

export const dynamic = "force-dynamic";

/** POST /api/queues/preview `{project, filter}` (project admin): `{items}`, how many items the queue would hold; creates nothing. */
export const POST = endpoint(previewContract, {
  access: (request) => authorize(request, "admin"),
  handle: async ({ request, body: input }) => {
    await authorize(request, "admin", input.project);
    return { items: await previewQueue(input.project, input.filter) };
  },
});
