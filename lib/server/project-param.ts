import "server-only";
import { decodeSegment } from "@/lib/api/text";
import { ApiError } from "./errors";

/** The project named in a route's `[project]` segment; malformed %-escapes, U+0000 or a lone surrogate name no project (404, not a PostgreSQL 500). */
export async function projectParam(params: Promise<{ project: string }>): Promise<string> {
  const project = decodeSegment((await params).project);
  if (project === null) throw new ApiError(404, "not_found", "no such project");
  return project;
}
