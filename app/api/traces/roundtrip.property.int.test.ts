import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { recomputeMetrics } from "@/lib/server/compute/persist";
import { prisma } from "@/lib/server/db/client";
import { saveAnnotation } from "@/lib/server/queries/annotations";
import { traceArb } from "@/lib/trace/arbitrary";
import { FAMILIES } from "@/lib/trace/types";
import { getRequest, jsonRequest, params } from "@/scripts/lib/test-http";
import { GET as credit } from "./[id]/credit/route";
import { GET as exportTrace } from "./[id]/export/route";
import { GET as metrics } from "./[id]/metrics/route";
import { POST as ingest } from "./route";

/** Property: on real PostgreSQL, export -> import -> export of the extended form is the identity, metrics and credit included. */
async function wipe() {
  await prisma().trace.deleteMany();
  await prisma().annotation.deleteMany();
  await prisma().adjudication.deleteMany();
  await prisma().user.deleteMany({ where: { local: false } });
}
const get = async (handler: (r: Request, c: { params: Promise<{ id: string }> }) => Promise<Response>, url: string) =>
  (await handler(getRequest(url), params({ id: "generated" }))).text();

const labelArb = fc.array(
  fc.record({
    who: fc.constantFrom("ann", "bob", "cy"),
    event: fc.option(fc.nat(), { nil: null }),
    family: fc.constantFrom(...FAMILIES),
    value: fc.double({ min: -1, max: 1, noNaN: true }),
    success: fc.constantFrom(0, 1),
  }),
  { maxLength: 6 },
);

beforeEach(wipe);

describe("the extended round trip over generated traces", () => {
  it("is the identity", async () => {
    await fc.assert(
      fc.asyncProperty(traceArb, labelArb, async (trace, labels) => {
        await wipe();
        expect((await ingest(jsonRequest("/api/traces", trace), params({}))).status).toBe(201);
        const row = await prisma().trace.findUniqueOrThrow({ where: { traceId: "generated" } });
        for (const l of labels) {
          const user = await prisma().user.upsert({ where: { email: `${l.who}@x.test` }, create: { email: `${l.who}@x.test`, name: l.who }, update: {} });
          const eventId = l.event === null ? null : trace.events[l.event % trace.events.length]!.id;
          const value = eventId === null && l.family === "task_success" ? l.success : l.value;
          await saveAnnotation("generated", row.id, { userId: user.id, email: user.email, name: l.who, via: "session" }, { event_id: eventId, family: l.family, value });
        }
        // as the annotations route does after a label
        await recomputeMetrics(row.id);
        const first = await get(exportTrace, "/api/traces/generated/export?format=extended");
        const before = [await get(metrics, "/api/traces/generated/metrics"), await get(credit, "/api/traces/generated/credit?normalize=1"), await get(credit, "/api/traces/generated/credit?method=mc_return&preset=code_generation")];
        await wipe();
        expect((await ingest(jsonRequest("/api/traces", JSON.parse(first)), params({}))).status).toBe(201);
        expect(await get(exportTrace, "/api/traces/generated/export?format=extended")).toBe(first);
        const after = [await get(metrics, "/api/traces/generated/metrics"), await get(credit, "/api/traces/generated/credit?normalize=1"), await get(credit, "/api/traces/generated/credit?method=mc_return&preset=code_generation")];
        expect(after).toEqual(before);
      }),
      { numRuns: 8, endOnFailure: true },
    );
  }, 120_000);
});
