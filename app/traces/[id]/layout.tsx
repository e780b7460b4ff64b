import type { ReactNode } from "react";
import { decodeSegment } from "@/lib/api/text";
import { requireTracePageRead } from "@/lib/server/auth/page-access";

/**
 * A trace's pages answer before anything streams (here, above the graph's
 * loading boundary: a page that streams its skeleton first has sent 200
 * before it could say "not found"): sign in, or HTTP 404 alike for an
 * unknown trace and one the visitor may not read.
 */
export default async function TraceLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireTracePageRead(`/traces/${id}`, decodeSegment(id));
  return children;
}
