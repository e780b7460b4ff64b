import { datasetFile as fileContract } from "@/lib/api/contracts/datasets";
import { readableProjects } from "@/lib/server/auth/access";
import { datasetFile } from "@/lib/server/datasets/store";
import { endpoint } from "@/lib/server/endpoint";
import { notFound } from "@/lib/server/errors";

export const dynamic = "force-dynamic";

const TYPES: Record<string, string> = { parquet: "application/vnd.apache.parquet", jsonl: "application/x-ndjson", json: "application/json", md: "text/markdown; charset=utf-8" };

/** GET /api/datasets/{id}/files/{path}: one file of a ready snapshot (data/train-….parquet, README.md, manifest.json). */
export const GET = endpoint(fileContract, {
  handle: async ({ request, params: { id, path } }) => {
    if (!/^\d{1,9}$/.test(id)) throw notFound(`dataset ${JSON.stringify(id.slice(0, 50))}`);
    const name = path.join("/");
    const bytes = await datasetFile(Number(id), name, await readableProjects(request));
    const ext = name.split(".").pop() ?? "";
    return new Response(Buffer.from(bytes), {
      headers: { "content-type": TYPES[ext] ?? "application/octet-stream", "content-disposition": `attachment; filename="${(path.at(-1) ?? "file").replace(/[^A-Za-z0-9._-]+/g, "_")}"` },
    });
  },
});
