import AxeBuilder from "@axe-core/playwright";
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { spearman } from "../lib/replay/effects";
import { plantedModel } from "../scripts/lib/planted-model";
import { startScriptedOpenAi } from "../scripts/lib/scripted-openai";
import { port } from "./lib/servers";

/**
 * Interventions and measured effects in the browser (docs/replay.md "In the
 * browser"): the planted-failure program (scripts/replay/planted-agents.mjs)
 * is recorded through the running app's gateway against a scripted model that
 * names the wrong city; on the label view the planner's step is changed to
 * "City: Oslo" with 3 samples; the program is run once per printed base URL
 * (each run succeeds), graded by its exit code; the heatmap page then shows
 * call-1's measured effect +1, confirmed by replay.
 */

const PROGRAM = resolve("scripts/replay/planted-agents.mjs");

/** Runs the planted program against a base URL: its exit code (0: success) and what it printed. */
function runProgram(baseUrl: string): Promise<{ code: number | null; out: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [PROGRAM], { env: { PATH: process.env.PATH ?? "", OPENAI_BASE_URL: baseUrl } as unknown as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, out }));
  });
}

/** Flushes a run until its trace is stored (a call may have been recorded by the other app process), then grades the trace. */
async function storeAndGrade(request: APIRequestContext, runKey: string, success: boolean) {
  await expect(async () => {
    const flushed = await request.post("/api/llm/flush", { data: { run_key: runKey } });
    expect(((await flushed.json()) as { runs: { status: string; calls: number }[] }).runs[0]).toMatchObject({ status: "stored", calls: 4 });
  }).toPass({ timeout: 10_000 });
  const graded = await request.post(`/api/traces/gw-${encodeURIComponent(runKey)}/annotations`, { data: { family: "task_success", value: success ? 1 : 0 } });
  expect(graded.status(), await graded.text()).toBe(201);
}

/** axe-core's serious and critical findings inside one part of the page. */
async function seriousProblemsIn(page: Page, selector: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).include(selector).analyze();
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical").flatMap((v) => v.nodes.map((n) => `[${v.id}] ${n.target.join(" ")}`));
}

/** Opens the label view at an event and changes its model call through "Change this step". */
async function changeStep(page: Page, traceId: string, eventId: string, o: { call: string; was: string; text: string; intent: string; samples: number; toolResult?: boolean; runner?: string }) {
  // on the label view already: select the step in its list, as a person would
  if (page.url().includes(`/traces/${traceId}/label`)) await page.locator(`[data-testid=label-row][data-event-id="${eventId}"]`).click();
  else await page.goto(`/traces/${traceId}/label?event=${encodeURIComponent(eventId)}`);
  const form = page.getByTestId("change-step");
  await expect(form).toHaveAttribute("data-call-id", o.call);
  await form.locator("summary").click();
  if (o.toolResult) await form.getByLabel("a tool result it read").check();
  await expect(page.getByTestId("change-text")).toHaveValue(o.was);
  await page.getByTestId("change-text").fill(o.text);
  await page.getByTestId("change-intent").selectOption(o.intent);
  await page.getByTestId("change-samples").fill(String(o.samples));
  if (o.runner) await page.getByTestId("change-runner").selectOption(o.runner);
  await page.getByTestId("change-submit").click();
  await expect(page.getByTestId("change-message")).toContainText("created");
  await expect(page.getByTestId("change-intervention").first().getByTestId("change-run")).toHaveCount(o.samples);
}

test("a step changed from the label view: its forks are run and the heatmap page shows the measured effect", async ({ page, request }) => {
  const upstream = await startScriptedOpenAi((body) => plantedModel(body));
  const runKey = `e2e-planted-${Date.now().toString(36)}`;
  const traceId = `gw-${runKey}`;
  try {
    expect((await request.put("/api/projects/default/gateway", { data: { base_url: upstream.url } })).status()).toBe(200);

    // the run, recorded live: the planner names Paris, the advice is wrong
    const recorded = await runProgram(`http://127.0.0.1:${port}/api/llm/run/${runKey}/v1`);
    expect(recorded.code).toBe(1);
    expect(JSON.parse(recorded.out)).toEqual({ final: "Pack light clothes and sunglasses.", success: false });
    await storeAndGrade(request, runKey, false);
    expect(upstream.requests).toHaveLength(4);

    // the planner's step: the event whose content is its reply
    const events = (await (await request.get(`/api/traces/${traceId}/events?content=1&limit=50`)).json()) as { events: { id: string; agent: string; content: string | null }[] };
    const byContent = (agent: string, content: string) => {
      const found = events.events.find((e) => e.agent === agent && e.content === content);
      expect(found, JSON.stringify(events.events.map((e) => [e.id, e.agent, e.content]))).toBeDefined();
      return found!.id;
    };
    await changeStep(page, traceId, byContent("planner", "City: Paris"), { call: "call-1", was: "City: Paris", text: "City: Oslo", intent: "correct", samples: 3 });
    const rows = page.getByTestId("change-intervention").first().getByTestId("change-run");
    await expect(rows).toHaveCount(3);
    await expect(rows.first()).toHaveAttribute("data-state", "waiting");

    // the program, once per printed base URL: the corrected city makes the advice right
    upstream.requests.length = 0;
    const forks: string[] = [];
    for (const row of await rows.all()) {
      const baseUrl = (await row.getAttribute("data-base-url"))!;
      const fork = (await row.getAttribute("data-run-key"))!;
      forks.push(fork);
      // the origin the app sees its requests at (Next reports the host as localhost), then the fork's run
      expect(new URL(baseUrl).port).toBe(String(port));
      expect(new URL(baseUrl).pathname).toBe(`/api/llm/run/${fork}/v1`);
      const ran = await runProgram(baseUrl);
      expect(JSON.parse(ran.out)).toEqual({ final: "Pack a warm coat, gloves and boots.", success: true });
      await storeAndGrade(request, fork, ran.code === 0);
    }
    // the edited call was served by Baton: 3 model calls per fork upstream, not 4
    expect(upstream.requests).toHaveLength(9);
    await page.getByTestId("change-refresh").click();
    await expect(page.locator('[data-testid=change-run][data-state="stored"]')).toHaveCount(3);

    // a fork's own page says what it replays, what was changed and how its four calls were answered, and leads back
    const labelUrl = page.url();
    await page.goto(`/traces/gw-${encodeURIComponent(forks[0]!)}`);
    const replayOf = page.getByTestId("replay-of");
    await expect(replayOf).toContainText(`A replay of ${traceId} with model call call-1's reply replaced`);
    await expect(replayOf).toContainText("intent: correct, sample 1): 1 call by the edit, 3 calls by the model.");
    expect(await seriousProblemsIn(page, "[data-testid=replay-of]")).toEqual([]);
    await replayOf.getByTestId("replay-compare").click();
    await expect(page).toHaveURL(`/compare?a=${encodeURIComponent(traceId)}&b=gw-${encodeURIComponent(forks[0]!)}`);
    await expect(page.getByRole("row", { name: /E1 task success/ })).toContainText(/failure\s*success/);
    // their calls side by side: the planner's reply was the edit, the three after it the live model's, each unlike the original's
    const pairs = page.getByTestId("compare-call");
    await expect(pairs).toHaveCount(4);
    await expect(pairs.first()).toHaveAttribute("data-origin", "edit");
    await expect(pairs.first()).toContainText("City: Paris");
    await expect(pairs.first()).toContainText("City: Oslo");
    await expect(page.locator('[data-testid=compare-call][data-origin="live"][data-same="0"]')).toHaveCount(3);
    expect(await seriousProblemsIn(page, "[data-testid=compare-calls]")).toEqual([]);
    // and the original's page counts its forks
    await page.goto(`/traces/${traceId}`);
    await expect(page.getByTestId("replayed")).toContainText("This run was replayed: 1 intervention with 3 forks.");
    await page.goto(labelUrl);

    // two more changes, each run by the registered runner "planted" (graded by the program's exit code)
    // call-3, the researcher's summary, reads the weather tool's result: it reads snow instead, and the advice comes out right
    await changeStep(page, traceId, byContent("researcher", "The weather there: 18 C and sunny."), { call: "call-3", toolResult: true, was: "18 C and sunny", text: "-4 C and snow", intent: "correct", samples: 1, runner: "planted" });
    // the prompt call-3 came from, as the model saw it: the researcher's own tool call and the result answering it
    const prompt = page.getByTestId("unit-call");
    await prompt.locator("summary").click();
    await expect(prompt.getByTestId("call-tool-call")).toHaveCount(1);
    await expect(prompt.getByTestId("call-tool-call")).toContainText('calls get_weather({"city":"Paris"})');
    const toolCallId = (await prompt.getByTestId("call-tool-call").textContent())!.split(" · id ")[1]!;
    await expect(prompt.getByTestId("call-message").last()).toContainText(`result of tool call ${toolCallId}`);
    // call-4, the writer's advice, neutralised: the same failure as before, effect 0
    await changeStep(page, traceId, byContent("writer", "Pack light clothes and sunglasses."), { call: "call-4", was: "Pack light clothes and sunglasses.", text: "Pack clothes.", intent: "neutralise", samples: 1, runner: "planted" });
    const newest = page.getByTestId("change-intervention").first().getByTestId("change-run");
    await expect(async () => {
      await page.getByTestId("change-refresh").click();
      await expect(newest.first()).toHaveAttribute("data-state", "stored", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(newest.first()).toContainText("runner planted: exited (exit 1)");
    expect(await seriousProblemsIn(page, "[data-testid=change-step]")).toEqual([]);

    // the heatmap page: call-1's effect +1 (0 of 1 → 3 of 3) with its interval, confirmed by replay
    await page.goto(`/traces/${traceId}/heatmap`);
    const effects = page.getByTestId("measured-effects");
    await expect(effects).toBeVisible();
    // the runner's forks may still be finishing: read the effects again until call-3's is measured
    await expect(async () => {
      await effects.getByTestId("effects-refresh").click();
      await expect(effects.locator('[data-testid=effect-bar][data-call-id="call-3"]')).toHaveAttribute("data-effect", "1", { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    const bar = effects.locator('[data-testid=effect-bar][data-call-id="call-1"]');
    await expect(bar).toHaveAttribute("data-effect", "1");
    await expect(bar.locator("rect")).toHaveCount(1);
    const row = effects.locator('[data-testid=effect-row][data-call-id="call-1"]');
    await expect(row).toContainText("+1");
    await expect(row).toContainText("n = 3");
    // Newcombe's interval of 3/3 − 0/1: Wilson [0.4385, 1] and [0, 0.7934], low = 1 − sqrt(0.5615² + 0.7934²) = 0.028
    await expect(row).toContainText("[0.028, 1]");
    await expect(row.getByTestId("confirmed-by-replay")).toBeVisible();
    await expect(effects.getByText(/against the recorded run/)).toBeVisible();
    // call-3: its fork read snow and succeeded (+1); call-4: neutralised, still a failure (0)
    await expect(effects.locator('[data-testid=effect-bar][data-call-id="call-3"]')).toHaveAttribute("data-effect", "1");
    await expect(effects.locator('[data-testid=effect-bar][data-call-id="call-4"]')).toHaveAttribute("data-effect", "0");
    await expect(effects.locator('[data-testid=effect-row][data-call-id="call-4"]')).toContainText("(neutralise)");

    // credit vs measured effect: signed effects [1, 1, 0]; each method's agreement is Spearman of the credits shown against them
    const table = effects.getByTestId("agreement-table");
    await expect(table).toContainText("signed effect");
    const measured = (await (await request.get(`/api/traces/${traceId}/effects`)).json()) as { calls: { call_id: string; signed_effect: number; credit: Record<string, number | null> }[] };
    expect(measured.calls.map((c) => [c.call_id, c.signed_effect])).toEqual([["call-1", 1], ["call-3", 1], ["call-4", 0]]);
    for (const method of ["ccp", "terminal"]) {
      const expected = spearman(measured.calls.map((c) => c.credit[method]!), [1, 1, 0]);
      const cell = table.locator(`[data-testid=agreement-row][data-method="${method}"]`);
      if (expected === null) await expect(cell).toContainText("undefined (credit or effects constant)");
      else await expect(cell).toHaveAttribute("data-spearman", String(expected));
    }
    // no group of rollouts: GRPO gives no credit
    await expect(table.locator('[data-testid=agreement-row][data-method="grpo"]')).toContainText("no credit (needs a group)");
    expect(await seriousProblemsIn(page, "[data-testid=measured-effects]")).toEqual([]);

    // the suspects panel: call-1 confirmed by replay (3 of 3 corrected forks succeeded; call-3's one sample cannot say), named the decisive error with that evidence
    const confirmed = page.getByTestId("suspects").getByTestId("confirmed-suspect");
    await expect(confirmed).toHaveCount(1);
    await expect(confirmed).toHaveAttribute("data-call-id", "call-1");
    await expect(confirmed.getByTestId("confirmed-evidence")).toContainText("correcting call-1 (planner) turned the failed run into a success in 3 of 3 forks");
    await confirmed.getByTestId("confirmed-make-decisive").click();
    await expect(confirmed.getByTestId("confirmed-state")).toContainText("is your decisive error");
    const decisive = (await (await request.get(`/api/traces/${traceId}/decisive-error`)).json()) as { decisive_event: string; labels: { reason: string }[] };
    expect(decisive.decisive_event).toBe(byContent("planner", "City: Paris"));
    expect(decisive.labels.map((l) => l.reason)).toEqual([expect.stringMatching(/^Confirmed by replay: correcting call-1/)]);
    expect(await seriousProblemsIn(page, "[data-testid=suspects]")).toEqual([]);

    // the dark theme (components/meeting/theme.ts "baton.theme"): the same two parts read as well
    await page.addInitScript(() => localStorage.setItem("baton.theme", "dark"));
    await page.reload();
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    await expect(page.locator('[data-testid=measured-effects] [data-testid=effect-bar][data-call-id="call-1"]')).toHaveAttribute("data-effect", "1");
    expect(await seriousProblemsIn(page, "[data-testid=measured-effects]")).toEqual([]);
    await page.goto(`/traces/${traceId}/label?event=${encodeURIComponent(byContent("planner", "City: Paris"))}`);
    await page.getByTestId("change-step").locator("summary").click();
    await expect(page.getByTestId("change-run")).toHaveCount(3);
    await expect(page.getByTestId("change-step").getByTestId("confirmed-suspect")).toContainText("confirmed by replay");
    expect(await seriousProblemsIn(page, "[data-testid=change-step]")).toEqual([]);
  } finally {
    await request.delete("/api/projects/default/gateway");
    await upstream.close();
  }
});
