import { notFound } from "next/navigation";
import { BaselineClient } from "./_components/baseline-client";

export const dynamic = "force-dynamic";

/**
 * Benchmark baseline for `npm run bench:render`: the same events as the
 * graph view, at the same positions, drawn by React Flow in its default
 * configuration (every node and edge in the DOM, default node and edge
 * types, fitView). Not linked from the app, and a 404 unless the server was
 * started with BATON_BENCH_PAGES=1 (bench:render does), so a deployment
 * never serves it.
 */
export default async function BaselinePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (process.env.BATON_BENCH_PAGES !== "1") notFound();
  const { trace } = await searchParams;
  if (typeof trace !== "string" || trace === "") return <p className="text-sm">Give a trace: /bench/baseline?trace=&lt;trace_id&gt;</p>;
  return <BaselineClient traceId={trace} />;
}
