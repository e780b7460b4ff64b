import Link from "next/link";

/** Baton's own documentation (docs/*.md in the repository), served in the app. */
const DOCS = [
  ["metrics", "Metrics", "E1-E4 and stop diagnostics: every number Baton computes, how and why"],
  ["api", "HTTP API", "every route, its parameters and answers, errors with JSON paths"],
  ["adapters", "Importing other formats", "Who&When, MultiAgentBench, tau-bench, ChatDev, AgentOps: what becomes what"],
  ["otlp", "OpenTelemetry", "sending live traces from instrumented agents"],
] as const;

export default function DocsIndex() {
  return (
    <div className="max-w-3xl space-y-4">
      <h1 className="text-2xl font-semibold">Documentation</h1>
      <ul className="space-y-3" data-testid="docs-index">
        {DOCS.map(([name, title, what]) => (
          <li key={name} className="rounded border border-slate-200 bg-white p-3">
            <Link href={`/docs/${name}`} className="font-medium text-blue-700 hover:underline">{title}</Link>
            <p className="text-sm text-slate-700">{what}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
