import { deleteTrace as deleteContract, getTrace as getContract } from "@/lib/api/contracts/traces";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { endpoint } from "@/lib/server/endpoint";
import { deleteTrace } from "@/lib/server/queries/delete-trace";
import { getTrace } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}: the trace in extended form; event content with ?content=1. */
export const GET = endpoint(getContract, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: ({ params: { id }, query }) => getTrace(id, { content: query.content === "1" }),
});

/**
 * DELETE /api/traces/{id}: the trace, its annotations and adjudications
 * (admin of its project). Unknown ids and traces the caller may not read
 * are the same 404, so that the answer does not reveal which ids exist.
 */
export const DELETE = endpoint(deleteContract, {
  access: (request, { id }) => authorizeTrace(request, id, "admin"),
  handle: async ({ params: { id } }) => ({ deleted: await deleteTrace(id) }),
});
