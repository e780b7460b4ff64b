import type { Metadata } from "next";
import { z } from "zod";
import { storedOrNull } from "@/lib/server/db/stored";
import { ProgressBar } from "@/components/progress-bar";
import { pageReadableProjects } from "@/lib/server/auth/page-access";
import { LIST_FILTER_KEYS, searchParamsObject } from "@/lib/api/filters";
import { snapshotWarnings } from "@/lib/datasets/preview";
import { listDatasets } from "@/lib/server/datasets/store";
import { traceFacets } from "@/lib/server/queries/traces";
import { SnapshotForm } from "./_components/snapshot-form";
import { RefreshEvery } from "@/components/refresh-every";

export const dynamic = "force-dynamic";

/** The parts of a stored manifest (datasets.manifest) this page shows, read through a schema, never cast. */
const manifestView = z.object({
  /** traces_skipped_no_group: absent from manifests written before it was counted */
  counts: z.object({ traces: z.number(), rows: z.number(), traces_without_calls: z.number(), traces_skipped_no_group: z.number().optional() }),
  credit: z.object({ method: z.string(), preset: z.string(), judges: z.string() }),
  annotations_as_of: z.string().nullable(),
  files: z.array(z.object({ path: z.string(), sha256: z.string(), bytes: z.number(), rows: z.number() })),
});
const diffView = z.object({ previous: z.number(), added: z.number(), removed: z.number(), changed: z.number() });

/**
 * Dataset snapshots (docs/train-with-baton.md): freeze the traces of a
 * filter as a Hugging Face dataset folder, watch the build, download its
 * files, see what changed since the previous snapshot of the same filter.
 */
export const metadata: Metadata = { title: "Datasets" };

export default async function DatasetsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // the trace list's filters in the URL (its "Snapshot as dataset" link) fill the form's filter fields
  const raw = searchParamsObject(await searchParams);
  const values = Object.fromEntries(Object.entries(raw).filter(([k]) => (LIST_FILTER_KEYS as readonly string[]).includes(k)));
  const readable = await pageReadableProjects("/datasets");
  const [datasets, facets] = await Promise.all([listDatasets(readable), traceFacets(readable)]);
  const building = datasets.some((d) => d.state !== "ready");
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Datasets</h1>
      <p className="max-w-3xl text-sm text-slate-600">
        A snapshot freezes the traces of a filter for training: one row per model call (transitions), per event or per trace, with reward,
        credit and advantage under the settings you choose, or in a trainer&apos;s own form (verl, verl-agent, rLLM, SkyRL, Agent Lightning), as
        Parquet shards with a manifest and a dataset card that <code>datasets.load_dataset</code> and DuckDB read unchanged. The same data gives
        the same bytes.
      </p>
      <SnapshotForm values={values} facets={facets} />
      {building && <RefreshEvery seconds={1} />}
      {datasets.length === 0 && <p className="rounded border border-dashed border-slate-300 p-6 text-center text-slate-500">No snapshots yet.</p>}
      <ul className="space-y-3">
        {datasets.map((d) => {
          const manifest = d.manifest === null ? null : storedOrNull(manifestView, d.manifest, `dataset ${d.id}: its manifest`);
          const diff = d.diff === null ? null : storedOrNull(diffView, d.diff, `dataset ${d.id}: its diff`);
          const skippedNoGroup = manifest?.counts.traces_skipped_no_group ?? 0;
          const warnings = manifest
            ? snapshotWarnings({ rows: manifest.counts.rows, traces: manifest.counts.traces + manifest.counts.traces_without_calls + skippedNoGroup, without_calls: manifest.counts.traces_without_calls, no_group: skippedNoGroup }, d.form, manifest.credit.method, true)
            : [];
          return (
            <li key={d.id} className="space-y-2 rounded border border-slate-200 bg-white p-3" data-testid="dataset-row" data-state={d.state}>
              <div>
                <span className="font-medium">{d.name}</span>
                <span className="ml-2 text-xs text-slate-500">
                  #{d.id} · {d.form} · {d.format} · {d.state} · created {d.created_at.slice(0, 19).replace("T", " ")} UTC
                </span>
              </div>
              {d.state !== "ready" && <ProgressBar done={d.progress.traces_done} total={d.progress.traces_total} label="traces" />}
              {d.manifest !== null && manifest === null && <p className="text-xs text-red-700">This snapshot&apos;s stored manifest does not read as one; the server log says why.</p>}
              {manifest && (
                <p className="text-xs text-slate-600">
                  {manifest.counts.rows.toLocaleString("en")} rows from {manifest.counts.traces.toLocaleString("en")} traces
                  {manifest.counts.traces_without_calls > 0 ? ` (${manifest.counts.traces_without_calls.toLocaleString("en")} without model calls left out)` : ""}
                  {skippedNoGroup > 0 ? ` (${skippedNoGroup.toLocaleString("en")} without a group left out)` : ""} ·{" "}
                  {manifest.credit.method} under {manifest.credit.preset} · judges {manifest.credit.judges} · {manifest.annotations_as_of === null ? "no labels" : `labels as of ${manifest.annotations_as_of}`}
                </p>
              )}
              {warnings.map((w) => (
                <p key={w} role="alert" className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-xs text-amber-900" data-testid="dataset-warning">
                  {w}
                </p>
              ))}
              {diff && (
                <p className="text-xs text-slate-600" data-testid="dataset-diff">
                  since #{diff.previous}: {diff.added} added, {diff.removed} removed, {diff.changed} changed
                </p>
              )}
              {manifest && (
                <ul className="space-y-0.5 text-xs">
                  {[...manifest.files.map((f) => f.path), "manifest.json", "README.md"].map((path) => (
                    <li key={path}>
                      <a className="text-sky-700 hover:underline" href={`/api/datasets/${d.id}/files/${path}`} download>
                        {path}
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
