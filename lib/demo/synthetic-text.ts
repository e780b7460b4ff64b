import type { Rng } from "../util/random";

/**
 * Short (~100 characters), varied contents for synthetic events, built from
 * small vocabularies so that a million of them are cheap to generate and the
 * trace still reads like a research / coding / analysis run.
 */

export const WORKER_ROLES = ["researcher", "coder", "analyst", "reviewer"] as const;
export type WorkerRole = (typeof WORKER_ROLES)[number];

const TOOLS_BY_ROLE: Readonly<Record<WorkerRole, readonly string[]>> = {
  researcher: ["web.search", "fetch", "web.search", "pdf.read"],
  coder: ["repo.grep", "read_file", "apply_patch", "run_tests"],
  analyst: ["sql.run", "python.exec", "sql.describe", "python.exec"],
  reviewer: ["read_file", "run_tests", "repo.grep", "web.search"],
};

const TOPICS = [
  "grid storage costs", "EU AI Act obligations", "retry backoff policy", "churn by cohort", "cache invalidation",
  "vector index recall", "carbon pricing", "p99 latency regression", "GDPR data retention", "solar curtailment",
];
const ASPECTS = ["2024 figures", "primary sources", "edge cases", "failure modes", "benchmarks", "cost drivers", "open questions"];
const DOMAINS = ["docs.example", "arxiv.example", "news.example", "forum.example", "stats.example", "wiki.example"];
const FILES = ["src/cache/lru.ts", "src/api/retry.py", "lib/index/hnsw.rs", "app/billing/sync.go", "tests/test_parse.py"];

const SEGMENTS = ["enterprise", "smb", "consumer", "eu", "us", "apac"];

function subjectOf(topic: number): string {
  return TOPICS[topic % TOPICS.length]!;
}

export function toolOf(rng: Rng, role: WorkerRole): string {
  return rng.pick(TOOLS_BY_ROLE[role]);
}

export function toolCallText(rng: Rng, tool: string, topic: number): string {
  const subject = subjectOf(topic);
  const slug = subject.replace(/ /g, "-");
  switch (tool) {
    case "web.search":
      return `web.search(q="${subject} ${rng.pick(ASPECTS)}", k=${rng.int(5, 10)}, recency="2y")`;
    case "fetch":
    case "pdf.read":
      return `${tool}(url="https://${rng.pick(DOMAINS)}/${slug}/${rng.int(100, 9999)}", max_chars=6000)`;
    case "sql.run":
    case "sql.describe":
      return `${tool}("SELECT segment, COUNT(*), AVG(value) FROM ${slug.replace(/-/g, "_")} WHERE year = 2024 GROUP BY 1")`;
    case "python.exec":
      return `python.exec("df = load('${slug}.parquet'); df.describe().T.head(${rng.int(5, 20)})")`;
    case "repo.grep":
      return `repo.grep(pattern="${subject.split(" ")[0]!.toLowerCase()}", path="src/", context=${rng.int(2, 8)})`;
    case "read_file":
      return `read_file(path="${rng.pick(FILES)}", start=${rng.int(1, 200)}, end=${rng.int(220, 400)})`;
    case "apply_patch":
      return `apply_patch(path="${rng.pick(FILES)}", hunks=${rng.int(1, 4)}, summary="${rng.pick(ASPECTS)} for ${subject}")`;
    default:
      return `${tool}(cmd="pytest -q -k ${subject.split(" ")[0]!.toLowerCase()}", timeout=${rng.int(60, 300)})`;
  }
}

export function toolResultText(rng: Rng, tool: string, topic: number, failed: boolean): string {
  if (failed) return `${tool} failed: TimeoutError after ${rng.int(10, 60)}s (attempt ${rng.int(1, 3)}/3); no partial output returned.`;
  const subject = subjectOf(topic);
  switch (tool) {
    case "web.search":
    case "fetch":
    case "pdf.read":
      return `${rng.int(3, 12)} hits; top: ${rng.pick(DOMAINS)}/r/${rng.int(1000, 99999)} "${subject}: ${rng.pick(ASPECTS)}" (${rng.int(200, 4000)} words)`;
    case "sql.run":
    case "sql.describe":
    case "python.exec":
      return `${rng.int(2, 40)} rows; segment=${rng.pick(SEGMENTS)} count=${rng.int(100, 90000)} avg=${rng.range(0, 500).toFixed(2)} (${rng.int(8, 900)} ms)`;
    case "run_tests":
      return `${rng.int(10, 140)} passed, ${rng.int(0, 3)} failed, ${rng.int(0, 5)} skipped in ${rng.range(0.4, 30).toFixed(2)}s`;
    default:
      return `${rng.pick(FILES)}:${rng.int(1, 400)}: ${rng.int(1, 9)} matches for ${subject}; nearest definition at line ${rng.int(1, 400)}`;
  }
}

export function messageText(rng: Rng, topic: number, to: string): string {
  return `@${to}: ${rng.pick(ASPECTS)} on ${subjectOf(topic)}: ${rng.int(2, 9)} sources agree, ${rng.int(0, 3)} conflict. Checking ${rng.pick(ASPECTS)} next.`;
}

export function returnText(rng: Rng, topic: number): string {
  return `Findings on ${subjectOf(topic)}: ${rng.int(3, 9)} claims, ${rng.int(2, 14)} citations, confidence ${rng.int(55, 95)}%. Gaps: ${rng.pick(ASPECTS)}.`;
}

export function planText(wave: number, workers: number, topic: number): string {
  return `Wave ${wave}: split "${subjectOf(topic)}" into ${workers} sub-questions and spawn one worker each, in parallel.`;
}

export function briefText(topic: number, index: number): string {
  return `Sub-question ${index + 1} on ${subjectOf(topic + index)}: collect evidence, cite sources, return a summary.`;
}

export function aggregateText(rng: Rng, wave: number, workers: number): string {
  return `Merged ${workers} worker reports into section ${wave}: ${rng.int(4, 15)} claims kept, ${rng.int(0, 4)} conflicts resolved, ${rng.int(0, 3)} open.`;
}
