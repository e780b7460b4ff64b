import Link from "next/link";

/**
 * The first page's word to a newcomer while the database holds nothing of
 * theirs (no trace, or only the generated demo traces): what to do first.
 */
export function StartHere({ empty }: { empty: boolean }) {
  return (
    <section className="rounded border border-blue-200 bg-blue-50 p-4 text-sm text-slate-800 dark:bg-transparent" data-testid="start-here" aria-labelledby="start-here-title">
      <h2 id="start-here-title" className="text-base font-semibold">Start here</h2>
      <p className="mt-1">{empty ? "No traces yet." : "Only Baton's demo traces are loaded so far: open one to see what a run looks like."} Then:</p>
      <ol className="mt-2 list-decimal space-y-1 pl-5">
        <li>
          <strong>Load your runs</strong>: drop files on the <Link href="/upload" className="text-blue-700 underline">upload page</Link> (Baton&apos;s trace schema, Who&amp;When, tau-bench, MultiAgentBench, ChatDev, AgentOps, OpenTelemetry exports), run <code className="font-mono">npm run ingest -- path/to/runs/</code>, or point an instrumented agent&apos;s OpenTelemetry exporter at <code className="font-mono">/api/otel/v1/traces</code>.
        </li>
        <li><strong>Read a run</strong>: its page is the conversation; its graph shows who did what, when, and the credit each step earned.</li>
        <li><strong>Label and compare</strong>: reward labels from the keyboard or in <Link href="/queues" className="text-blue-700 underline">queues</Link>, failed runs&apos; decisive errors on <Link href="/attribution" className="text-blue-700 underline">Attribution</Link>, the <Link href="/dashboard" className="text-blue-700 underline">dashboard</Link> across systems.</li>
      </ol>
    </section>
  );
}
