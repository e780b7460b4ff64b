import { notFound } from "next/navigation";
import { BaselineClient } from "./_components/baseline-client";
import { setting } from "@/lib/server/config";

export const dynamic = "force-dynamic";

/**
 * Benchmark baseline for `npm run bench:render`: the same events as the
 * graph view, at the same positions, drawn by React Flow in its default
 * configuration (every node and edge in the DOM, default node and edge
 * types, fitView). Not linked from the app. Its `.bench.tsx` name keeps it
 * out of every build made without BATON_BENCH_PAGES=1 (next.config.mjs
 * pageExtensions; bench:render builds with it, in a dist dir of its own),
 * and a build that has it still answers 404 unless the server runs with
 * BATON_BENCH_PAGES=1.
 */
export default async function BaselinePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (setting("BATON_BENCH_PAGES") !== "1") notFound();
  const { trace } = await searchParams;
  if (typeof trace !== "string" || trace === "") return <p className="text-sm">Give a trace: /bench/baseline?trace=&lt;trace_id&gt;</p>;
  return <BaselineClient traceId={trace} />;
}
