import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type APIRequestContext } from "@playwright/test";

/**
 * A framework's real OTLP export (the committed captures of
 * scripts/frameworks/, under a fresh trace id) posted to Baton's OTLP
 * endpoint, then read as a person does: the trace page shows the agents,
 * the request and the answer as text, and what the mapping dropped.
 */

interface Fixture {
  resourceSpans: { scopeSpans: { spans: { traceId: string }[] }[] }[];
}

async function sendFixture(request: APIRequestContext, name: string): Promise<string> {
  const fixture = JSON.parse(readFileSync(`lib/adapters/otlp/fixtures/${name}.json`, "utf8")) as Fixture;
  const traceId = randomBytes(16).toString("hex");
  for (const rs of fixture.resourceSpans) for (const ss of rs.scopeSpans) for (const span of ss.spans) span.traceId = traceId;
  const sent = await request.post("/api/otel/v1/traces", { data: { resourceSpans: fixture.resourceSpans } });
  expect(sent.status()).toBe(200);
  const flushed = await request.post("/api/otel/v1/flush", { data: { trace_id: traceId } });
  expect(((await flushed.json()) as { traces: { status: string }[] }).traces[0]!.status).toBe("stored");
  return traceId;
}

test("a LangGraph supervisor run sent over OTLP reads as its agents, request and answer, and lists the spans not mapped", async ({ page, request }) => {
  const traceId = await sendFixture(request, "langgraph");
  await page.goto(`/traces/${traceId}`);
  await expect(page.getByTestId("trace-title")).toHaveText(traceId);
  const unmapped = page.getByTestId("unmapped-spans");
  await expect(unmapped).toContainText(/\d+ spans not mapped: .*RunnableSequence/);
  await unmapped.locator("summary").click();
  await expect(unmapped.getByText(/^__start__ × \d+$/)).toBeVisible();
  await expect(unmapped).not.toContainText("supervisor ×");
  const body = page.locator("main");
  await expect(body).toContainText("What is the population of Lyon? Answer in one sentence.");
  await expect(body).toContainText("Lyon is home to about 520,000 people.");
  for (const agent of ["supervisor", "researcher", "writer"]) await expect(body.getByText(agent, { exact: true }).first()).toBeVisible();
});

test("a Mastra 1.x run (captured on Node 22) reads as its request, the tool's result and the answer; its steps are read, its stream chunks listed as not mapped", async ({ page, request }) => {
  const traceId = await sendFixture(request, "mastra");
  await page.goto(`/traces/${traceId}`);
  await expect(page.getByTestId("trace-title")).toHaveText(traceId);
  const body = page.locator("main");
  await expect(body).toContainText("Write a two-sentence brief on the boiling point of water at altitude.");
  await expect(body).toContainText("Water boils at about 93 C at 2000 m.");
  await expect(body).toContainText("Brief: At altitude water boils below 100 C");
  const unmapped = page.getByTestId("unmapped-spans");
  await unmapped.locator("summary").click();
  await expect(unmapped.getByText(/^model_chunk orchestrator × 5$/)).toBeVisible();
  await expect(unmapped).not.toContainText("agent_step");
});
