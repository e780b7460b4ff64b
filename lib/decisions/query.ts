/**
 * The decision analytics' filter (`GET /api/decisions` and the /decisions
 * page): the dashboard's filter (project, system, task_id, group_id,
 * topology, from/to inclusive days) plus the checkpoint, metadata.policy_version.
 */
import { z } from "zod";
import { filterText } from "../api/params";
import { dashboardFilterShape } from "../dashboard/query";

export const decisionFilter = z
  .strictObject({ ...dashboardFilterShape, policy_version: filterText.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from must not be after to", path: ["to"] });
export type DecisionFilter = z.infer<typeof decisionFilter>;

/** The path segment of a group id (any text) in a page or API URL. */
export const groupHref = (groupId: string) => `/groups/${encodeURIComponent(groupId)}`;
