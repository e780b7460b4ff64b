/** The guides of docs/*.md served in the app: name (file and URL), title, what it answers. */
export const DOC_PAGES = [
  ["metrics", "Metrics", "E1-E4 and stop diagnostics: every number Baton computes, how and why"],
  ["api", "HTTP API", "every route, its parameters and answers, errors with JSON paths"],
  ["adapters", "Importing other formats", "Who&When, MultiAgentBench, tau-bench, ChatDev, AgentOps: what becomes what"],
  ["otlp", "OpenTelemetry", "sending live traces from instrumented agents"],
  ["judges", "Judges", "labelling with models on an OpenAI-compatible endpoint (OpenAI, vLLM, Ollama): runs, prompts, trust"],
  ["deployment", "Deployment", "several app processes, read replicas and where each read goes"],
  ["train-with-baton", "Train with Baton", "dataset snapshots, transitions and their columns, with recipes for training frameworks"],
] as const;

export const DOC_NAMES: ReadonlySet<string> = new Set(DOC_PAGES.map(([name]) => name));
