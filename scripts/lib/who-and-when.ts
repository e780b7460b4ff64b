/**
 * The labelled Who&When runs of ../shared/data/who_and_when as attribution
 * methods see them: through Baton's adapter and validation, the label read
 * from the adapted trace's metadata, then stripped (lib/blame blameInput).
 * Used by `npm run bench:blame` and `npm run blame:train-default`.
 */
import { readdirSync } from "node:fs";
import { adapt } from "@/lib/adapters";
import { blameInput, type LabelledTrace } from "@/lib/blame";
import { validateTrace } from "@/lib/trace/validate";

export const WHO_AND_WHEN = "../shared/data/who_and_when";
export const WHO_AND_WHEN_SUBSETS = ["Hand-Crafted", "Algorithm-Generated"] as const;

/** One subset's runs in file-number order. */
export async function loadWhoAndWhen(subset: string, root = WHO_AND_WHEN): Promise<LabelledTrace[]> {
  const folder = `${root}/${subset}`;
  const files = readdirSync(folder).sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  const out: LabelledTrace[] = [];
  for (const file of files) {
    for await (const adapted of adapt("whowhen", `${folder}/${file}`)) {
      const truth = adapted.metadata!.ground_truth as { mistake_event_id: string; mistake_agent: string };
      const result = validateTrace(adapted);
      if (!result.ok) throw new Error(`${file}: ${result.problems.map((p) => p.message).join("; ")}`);
      out.push({ input: blameInput(result.trace), decisive_event_id: truth.mistake_event_id, decisive_agent: truth.mistake_agent });
    }
  }
  return out;
}
