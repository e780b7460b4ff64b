import type { AdapterFormat, Provenance } from "./types";

/**
 * The provenance table of shared/data/README.md, so that every imported
 * trace says which public repository and commit it was copied from.
 * Keyed by the dataset folder inside the data folder.
 */
interface DatasetSource {
  dataset: string;
  repo: string;
  license: string;
  /** commit and original path of a file, given its path inside the dataset folder */
  locate(inner: string): { commit: string; original_path: string } | null;
}

const MARBLE_COMMITS: Readonly<Record<string, [commit: string, original: string]>> = {
  "chain_research_gpt3.5.jsonl": ["966b3714ad2aa9a7e0704e6f0a4628fc661297ce", "marble/result/chain_research_gpt3.5.jsonl"],
  "star_research_gpt3.5.jsonl": ["966b3714ad2aa9a7e0704e6f0a4628fc661297ce", "marble/result/star_research_gpt3.5.jsonl"],
  "tree_research_gpt3.5.jsonl": ["966b3714ad2aa9a7e0704e6f0a4628fc661297ce", "marble/result/tree_research_gpt3.5.jsonl"],
  "graph_research_gpt3.5.jsonl": ["966b3714ad2aa9a7e0704e6f0a4628fc661297ce", "marble/result/graph_research_gpt3.5.jsonl"],
  "discussion_output_gpt-4o-mini_0.jsonl": ["d8750e92fb822afb07e8f4f198afba38e9287991", "marble/result/minecraft/discussion_output_gpt-4o-mini_0.jsonl"],
  "E_COMMERCE_MISSING_INDEXES_RESULT.json": ["5dcda7cda4ab79b09c657ddd40b6880ab5637f55", "marble/result/E_COMMERCE_MISSING_INDEXES_RESULT.json"],
  "coding_output.jsonl": ["3c6e45b1209ae78f456b03efeb00153e2978937f", "marble/result/coding_output.jsonl"],
};

const DATASETS: Readonly<Record<string, DatasetSource>> = {
  who_and_when: {
    dataset: "Who&When",
    repo: "mingyin1/Agents_Failure_Attribution",
    license: "MIT",
    locate: (inner) => ({ commit: "3d9d568840f004b389638f97adf3e0ab8b5a9514", original_path: `Who&When/${inner}` }),
  },
  multiagentbench_marble: {
    dataset: "MultiAgentBench (MARBLE)",
    repo: "ulab-uiuc/MARBLE",
    license: "MIT",
    locate: (inner) => {
      const known = MARBLE_COMMITS[inner];
      return known ? { commit: known[0], original_path: known[1] } : null;
    },
  },
  tau_bench: {
    dataset: "tau-bench",
    repo: "sierra-research/tau-bench",
    license: "MIT",
    locate: (inner) => ({ commit: "59a200c6d575d595120f1cb70fea53cef0632f6b", original_path: `historical_trajectories/${inner}` }),
  },
  chatdev_warehouse: {
    dataset: "ChatDev WareHouse",
    repo: "OpenBMB/ChatDev",
    license: "Apache-2.0",
    locate: (inner) => ({ commit: "31fd994416a251ecdeb1f0a73c329271743bfb56", original_path: `WareHouse/${inner}` }),
  },
  agentops_crewai_ibm: {
    dataset: "AgentOps CrewAI export (IBM tutorial)",
    repo: "IBM/ibmdotcom-tutorials",
    license: "Apache-2.0",
    locate: () => ({ commit: "d34ec8ea981cf8affb2a98491e79a3d9235f344e", original_path: "tutorials/03-multi-agent-systems/acp_tutorial/agent_ops_traces.md" }),
  },
};

/** Splits a path on either separator, dropping empty and "." segments. */
export function pathSegments(path: string): string[] {
  return path.split(/[\\/]+/).filter((s) => s !== "" && s !== ".");
}

export function baseName(path: string): string {
  return pathSegments(path).at(-1) ?? path;
}

/** The file name without its last extension. */
export function stem(path: string): string {
  return baseName(path).replace(/\.[^.]+$/, "");
}

/**
 * Provenance of a file: when its path runs through one of the known dataset
 * folders, the path from that folder on and the repository/commit it was
 * copied from; otherwise just the name it was given under.
 */
export function provenanceOf(path: string, adapter: AdapterFormat, fallbackDataset: string): Provenance {
  const segments = pathSegments(path);
  for (let i = segments.length - 2; i >= 0; i--) {
    const source = DATASETS[segments[i]!];
    if (!source) continue;
    const inner = segments.slice(i + 1).join("/");
    const located = source.locate(inner);
    return {
      dataset: source.dataset,
      file: segments.slice(i).join("/"),
      repo: source.repo,
      ...(located ?? {}),
      license: source.license,
      adapter,
    };
  }
  return { dataset: fallbackDataset, file: baseName(path), adapter };
}
