import { beforeAll, describe, expect, it } from "vitest";
import { demoTraces } from "@/lib/demo";
import { prisma } from "@/lib/server/db/client";
import { ingestFormatted } from "@/lib/server/ingest/format-ingest";
import { ingestRecords } from "@/lib/server/ingest/ingest";
import { onlyDemoTraces } from "./traces";

/** The first page's "start here" shows while the database holds nothing of its users. */
describe("onlyDemoTraces", () => {
  beforeAll(async () => {
    await prisma().trace.deleteMany();
  });

  it("is true for an empty database and one holding only the demo traces, false once a run of one's own is stored", async () => {
    expect(await onlyDemoTraces()).toBe(true);
    const demo = demoTraces().slice(0, 2);
    await ingestRecords(demo.map((value, i) => ({ base: `$[${i}]`, value })), { upsert: false });
    expect(await onlyDemoTraces()).toBe(true);
    expect((await ingestFormatted("../shared/data/who_and_when/Hand-Crafted/1.json", { format: "whowhen", upsert: false })).ok).toBe(true);
    expect(await onlyDemoTraces()).toBe(false);
  });
});
