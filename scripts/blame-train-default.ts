/**
 * `npm run blame:train-default`: trains the attribution model Baton ships
 * (lib/blame/default-model.json) on the labelled Who&When runs of
 * ../shared/data/who_and_when (both subsets): every candidate of
 * LEARNED_GRID is scored by 5-fold CV by trace (seed 1), the best step
 * accuracy (pickBest) is retrained on all the runs. Deterministic: the same
 * data gives the same weights (only `trained_at` changes).
 */
import { writeFile } from "node:fs/promises";
import { DEFAULT_CV, LEARNED_GRID, trainTuned } from "@/lib/blame";
import type { DefaultModelFile } from "@/lib/blame/default-model";
import { loadWhoAndWhen, WHO_AND_WHEN_SUBSETS } from "./lib/who-and-when";

const OUT = "lib/blame/default-model.json";

async function main(): Promise<void> {
  const started = performance.now();
  const labelled = (await Promise.all(WHO_AND_WHEN_SUBSETS.map((s) => loadWhoAndWhen(s)))).flat();
  const tuned = trainTuned(labelled, LEARNED_GRID, DEFAULT_CV, "default");
  const file: DefaultModelFile = {
    version: 1,
    source: `Who&When (${WHO_AND_WHEN_SUBSETS.join(" + ")})`,
    traces: labelled.length,
    trained_at: new Date().toISOString(),
    selected_by: `best ${DEFAULT_CV.k}-fold CV step accuracy (seed ${DEFAULT_CV.seed}) of ${LEARNED_GRID.length} candidates`,
    chosen: tuned.chosen,
    model: tuned.model!,
  };
  await writeFile(OUT, `${JSON.stringify(file, null, 1)}\n`);
  console.log(`${OUT}: ${tuned.chosen}, trained on ${labelled.length} runs (${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
