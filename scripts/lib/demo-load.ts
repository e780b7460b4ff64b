import { demoTraces } from "@/lib/demo";
import { prisma } from "@/lib/server/db/client";
import { ingestRecords } from "@/lib/server/ingest/ingest";

/** Loads Baton's generated demo traces through the normal ingest path when the database holds no trace. */
export async function loadDemoIfEmpty(): Promise<number> {
  if ((await prisma().trace.count()) > 0) return 0;
  const traces = demoTraces();
  await ingestRecords(traces.map((value, i) => ({ base: `$[${i}]`, value })), { upsert: false });
  return traces.length;
}
