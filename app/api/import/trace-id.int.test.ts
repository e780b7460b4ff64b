import { readFileSync } from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { prisma } from "@/lib/server/db/client";
import { ingestFormatted } from "@/lib/server/ingest/format-ingest";
import { params, type ErrorBody } from "@/scripts/lib/test-http";
import { POST } from "./route";

/** The upload page's door: POST /api/import with the file's bare name, as a browser sends it. */
async function upload(file: string, name: string) {
  const request = new Request(`http://localhost/api/import?format=auto&name=${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream" },
    body: readFileSync(file, "utf8"),
  });
  const response = await POST(request, params({}));
  return { status: response.status, body: (await response.json()) as { traces: { trace_id: string }[] } & ErrorBody };
}

const HAND_46 = "../shared/data/who_and_when/Hand-Crafted/46.json";
const HAND_11 = "../shared/data/who_and_when/Hand-Crafted/11.json";
const ALGO_11 = "../shared/data/who_and_when/Algorithm-Generated/11.json";

beforeEach(async () => {
  await prisma().trace.deleteMany();
});

describe("one trace_id per file, through the CLI and the upload page", () => {
  it("gives Hand-Crafted/46.json the same id through both, and the second import says it is already stored", async () => {
    const cli = await ingestFormatted(HAND_46, { format: "auto", upsert: false });
    expect(cli.traces.map((t) => t.trace_id)).toEqual(["whowhen-hand-crafted-46"]);
    const again = await upload(HAND_46, "46.json");
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/^already stored: this run was imported before \(whowhen-hand-crafted-46\); nothing was changed/);
    expect(await prisma().trace.count()).toBe(1);
  });

  it("keeps 11.json of the two subsets apart: both stored, no conflict", async () => {
    const first = await upload(HAND_11, "11.json");
    const second = await upload(ALGO_11, "11.json");
    expect([first.status, second.status]).toEqual([201, 201]);
    expect([first.body.traces[0]!.trace_id, second.body.traces[0]!.trace_id]).toEqual(["whowhen-hand-crafted-11", "whowhen-algorithm-generated-11"]);
    expect(await prisma().trace.count()).toBe(2);
  });
});
