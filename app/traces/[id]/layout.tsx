import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { prisma } from "@/lib/server/db/client";
import { receivingState } from "@/lib/server/otel/receiving";

/**
 * A trace's pages answer HTTP 404 when the trace does not exist. The check
 * sits here, above the graph's loading boundary: a page that streams (its
 * skeleton first) has sent 200 before it could say "not found".
 */
export default async function TraceLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const traceId = decodeURIComponent((await params).id);
  const stored = await prisma().trace.findUnique({ where: { traceId }, select: { id: true } });
  // an OTLP trace still arriving has no stored row yet; its detail page says so
  if (stored === null && (await receivingState(traceId)) === null) notFound();
  return children;
}
