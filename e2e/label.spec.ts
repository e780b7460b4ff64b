import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";

/**
 * The label page in open local mode: keyboard and mouse, content in front
 * (never as HTML), task_success fail/success keys, comments, undo, Escape,
 * failed saves and their retry, deep links, dark mode.
 */
const example = JSON.parse(readFileSync("../shared/trace-schema/example_trace.json", "utf8")) as { events: Record<string, unknown>[] } & Record<string, unknown>;
const CONTENT: Record<string, string> = { e4: "plan: search first", e5: '{"query":"baton","k":3}', e6: "<b>3 results</b>: a, b, c", e8: "final answer: 42" };
const withContent = (traceId: string) => ({ ...example, trace_id: traceId, metadata: { question: "What is the answer?" }, events: example.events.map((e) => ({ ...e, ...(CONTENT[e.id as string] && { content: CONTENT[e.id as string] }) })) });

async function open(page: Page, traceId: string, query = "") {
  await page.goto(`/traces/${traceId}/label${query}`);
  await expect(page.locator("[data-testid=label-row][data-event-id]")).toHaveCount(8);
}
const credit = async (page: Page, id: string) => Number(await page.getByTestId(`credit-${id}`).getAttribute("data-value"));

test("labels with the keyboard: content in front, help closes with Esc, credit follows, the export carries the labels", async ({ page, request }) => {
  const traceId = `e2e-label-${Date.now()}`;
  expect((await request.post("/api/traces", { data: withContent(traceId) })).status()).toBe(201);
  await open(page, traceId);
  // an empty data-value (credit not arrived yet) reads as Number("") = 0: wait for the number itself
  await expect.poll(async () => page.getByTestId("credit-e4").getAttribute("data-value")).not.toBe("");
  const before = await credit(page, "e4");

  await page.keyboard.press("?");
  await expect(page.getByTestId("key-help")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("key-help")).toHaveCount(0);

  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-event-id", "e4");
  await expect(page.getByTestId("unit-content")).toHaveText("plan: search first");
  await expect(page.getByTestId("read-item").first()).toHaveAttribute("data-event-id", "e2");
  await expect(page.getByTestId("rubric-step_quality")).toContainText("Correct, relevant and clear");
  await page.keyboard.press("5");
  await page.keyboard.press("c");
  await page.getByTestId("comment-step_quality").fill("clear plan");
  await page.keyboard.press("Enter"); // closes the comment box
  await page.keyboard.press("Control+Enter"); // save, next
  await expect(page.getByTestId("chip-e4-step_quality")).toHaveAttribute("data-status", "saved");
  await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-event-id", "e5");
  // step_quality +1 on e4 with weight 1 adds exactly 1 to its credit
  await expect.poll(() => credit(page, "e4")).toBeCloseTo(before + 1, 9);

  // a tool call: arguments pretty-printed beside the result, which is text, not HTML
  await expect(page.getByTestId("tool-pair")).toBeVisible();
  await expect(page.getByTestId("unit-content")).toHaveText('{\n  "query": "baton",\n  "k": 3\n}');
  await expect(page.getByTestId("tool-result-content")).toHaveText("<b>3 results</b>: a, b, c");
  await expect(page.getByTestId("tool-result-content").locator("b")).toHaveCount(0);

  // cost: key 1 is "wasteful +1", and the effect of the negative weight is written beside it
  await expect(page.getByTestId("option-cost-1")).toContainText("wasteful +1");
  await expect(page.getByTestId("effect-cost")).toContainText("wasteful (+1) label lowers credit");

  const saved = (await (await request.get(`/api/traces/${traceId}/annotations`)).json()) as { annotations: { event_id: string; value: number; comment: string | null }[] };
  expect(saved.annotations).toEqual([expect.objectContaining({ event_id: "e4", value: 1, comment: "clear plan" })]);

  // undo removes that first label again
  await page.keyboard.press("u");
  await expect(page.getByTestId("chip-e4-step_quality")).toHaveCount(0);
  await expect.poll(async () => ((await (await request.get(`/api/traces/${traceId}/annotations`)).json()) as { annotations: unknown[] }).annotations).toEqual([]);
});

test("the whole trace: task, final answer and timeline; task_success is fail/success (key 3 means nothing), stored 0/1", async ({ page, request }) => {
  const traceId = `e2e-label-trace-${Date.now()}`;
  expect((await request.post("/api/traces", { data: withContent(traceId) })).status()).toBe(201);
  await open(page, traceId);
  await page.keyboard.press("ArrowLeft");
  await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-unit", "trace");
  await expect(page.getByTestId("trace-task")).toHaveText("What is the answer?");
  await expect(page.getByTestId("trace-answer")).toHaveText("final answer: 42");
  await expect(page.getByTestId("trace-timeline").locator("li")).toHaveCount(8);
  await expect(page.getByTestId("option-task_success-1")).toContainText("fail");
  await expect(page.getByTestId("option-task_success-2")).toContainText("success");
  await expect(page.getByTestId("option-task_success-3")).toHaveCount(0);
  await page.keyboard.press("3");
  await expect(page.locator('[data-testid^=option-task_success][data-chosen="true"]')).toHaveCount(0);
  await page.getByTestId("option-task_success-1").click(); // the mouse works too
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("trace-label")).toContainText("fail");
  await expect(page.getByTestId("saved-task_success")).toHaveAttribute("data-value", "0");
  // "saved" shows at once, with a badge while the write is under way: the stored label is waited for
  const saved = async () => ((await (await request.get(`/api/traces/${traceId}/annotations`)).json()) as { annotations: { event_id: string | null; value: number }[] }).annotations;
  await expect.poll(saved).toEqual([expect.objectContaining({ event_id: null, family: "task_success", value: 0 })]);
  // the label is committed first and E1 recomputed after it, in the same request: the stored E1 follows
  const e1 = async () => ((await (await request.get(`/api/traces/${traceId}/metrics`)).json()) as { e1: number }).e1;
  await expect.poll(e1).toBe(0);
});

test("x goes on without a label and says so; keys typed into a text field or with a dialog open never act on labels", async ({ page, request }) => {
  const traceId = `e2e-label-focus-${Date.now()}`;
  expect((await request.post("/api/traces", { data: withContent(traceId) })).status()).toBe(201);
  await open(page, traceId);
  const selected = page.locator('[data-testid=label-row][data-selected="true"]');
  const stored = async () => ((await (await request.get(`/api/traces/${traceId}/annotations`)).json()) as { annotations: { event_id: string; family: string; value: number }[] }).annotations;
  await page.keyboard.press("ArrowRight"); // e2: orchestration is its first field, key 1 is -1
  await page.keyboard.press("1");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("chip-e2-orchestration")).toHaveAttribute("data-status", "saved");

  // x: the next event, nothing saved, and the page says so
  await page.keyboard.press("x");
  await expect(selected).toHaveAttribute("data-event-id", "e3");
  await expect(page.getByTestId("label-skipped")).toHaveText("Skipped event 2 without a label (nothing saved).");
  await page.keyboard.press("?");
  await expect(page.getByTestId("key-help")).toContainText("go to the next item without labelling this one");

  // with the help open, u and the digits do nothing; Esc closes it
  for (const key of ["u", "1", "s", "ArrowRight"]) await page.keyboard.press(key);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("key-help")).toHaveCount(0);
  await expect(selected).toHaveAttribute("data-event-id", "e3");

  // a reason typed into the decisive error's text field stays text
  await page.getByLabel("Why (optional)").pressSequentially("unclear: u s f w x 1");
  await expect(page.getByLabel("Why (optional)")).toHaveValue("unclear: u s f w x 1");
  await expect(selected).toHaveAttribute("data-event-id", "e3");
  await expect(page.getByTestId("decisive-message")).toHaveCount(0);
  await page.getByLabel("Why (optional)").press("Escape");

  // a comment typed with shortcut letters in it
  await page.keyboard.press("c");
  await page.keyboard.type("unsure, see x");
  await expect(page.locator("[data-testid^=comment-]").first()).toHaveValue("unsure, see x");
  await expect(page.getByTestId("chip-e2-orchestration")).toHaveAttribute("data-status", "saved");
  expect(await stored()).toEqual([expect.objectContaining({ event_id: "e2", family: "orchestration", value: -1 })]);
});

test("a label that cannot be saved stays visible as failed and is saved on retry", async ({ page, request }) => {
  const traceId = `e2e-retry-${Date.now()}`;
  expect((await request.post("/api/traces", { data: { ...example, trace_id: traceId } })).status()).toBe(201);
  await open(page, traceId);
  await page.route("**/annotations", (route) => (route.request().method() === "POST" ? route.abort() : route.continue()));
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("1");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("failed-labels")).toContainText("1 label not saved");
  await page.unroute("**/annotations");
  await page.keyboard.press("r");
  await expect(page.getByTestId("chip-e2-orchestration")).toHaveAttribute("data-status", "saved");
  await expect(page.getByTestId("failed-labels")).toHaveCount(0);
  const saved = (await (await request.get(`/api/traces/${traceId}/annotations`)).json()) as { annotations: { event_id: string; value: number }[] };
  expect(saved.annotations).toEqual([expect.objectContaining({ event_id: "e2", value: -1 })]);
});

test("?event= opens the labeling page at that event; an unknown id starts at the first; the selected row is readable in dark mode", async ({ page, request }) => {
  const traceId = `e2e-label-start-${Date.now()}`;
  expect((await request.post("/api/traces", { data: { ...example, trace_id: traceId } })).status()).toBe(201);
  await open(page, traceId, "?event=e4");
  await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-event-id", "e4");
  await open(page, traceId, "?event=nope");
  const selected = page.locator('[data-testid=label-row][data-selected="true"]');
  await expect(selected).toHaveAttribute("data-event-id", "e1");
  await page.evaluate(() => document.documentElement.classList.add("dark"));
  // WCAG contrast of the selected row's text on its background: at least 4.5
  const ratio = await selected.evaluate((el) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const lum = (c: number[]) => {
      const [r, g, b] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const style = getComputedStyle(el);
    const probe = document.createElement("canvas").getContext("2d")!;
    const toRgb = (c: string) => {
      probe.fillStyle = c;
      probe.fillRect(0, 0, 1, 1);
      return [...probe.getImageData(0, 0, 1, 1).data].slice(0, 3);
    };
    const [a, b] = [lum(rgb(`rgb(${toRgb(style.color).join(",")})`)), lum(rgb(`rgb(${toRgb(style.backgroundColor).join(",")})`))];
    return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  });
  expect(ratio).toBeGreaterThan(4.5);
});

test("opening at a step asks once for its content and once for its credit by family", async ({ page, request }) => {
  const traceId = `e2e-label-once-${Date.now()}`;
  expect((await request.post("/api/traces", { data: withContent(traceId) })).status()).toBe(201);
  const asked = { context: 0, credit: 0 };
  const isUnitCredit = (u: string) => {
    const url = new URL(u);
    return url.pathname === `/api/traces/${traceId}/graph` && url.searchParams.get("part") === "credit" && url.searchParams.get("families") === "1" && url.searchParams.get("from") === "3";
  };
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname === `/api/traces/${traceId}/annotations/context` && url.searchParams.get("event") === "e4") asked.context++;
    if (isUnitCredit(r.url())) asked.credit++;
  });
  const unitCredit = page.waitForResponse((r) => isUnitCredit(r.url()));
  await open(page, traceId, "?event=e4");
  await expect(page.getByTestId("unit-content")).toHaveText("plan: search first");
  expect((await unitCredit).status()).toBe(200);
  // nothing more comes in the moments after
  await page.waitForTimeout(1_000);
  expect(asked).toEqual({ context: 1, credit: 1 });
});

test("a real tau-bench conversation: a credit that rounds to zero reads 0, never -0 (rows and the credit breakdown)", async ({ page, request }) => {
  // a name of its own gives fresh trace ids (taubench-<name>-task0-trial0): no other test's labels move the credit
  const name = `e2e-minus-zero-${Date.now()}`;
  const response = await request.post(`/api/import?name=${name}.json`, { data: readFileSync("../shared/data/tau_bench/gpt-4o-airline.json", "utf8"), headers: { "content-type": "application/json" } });
  expect(response.status()).toBe(201);
  const traceId = `taubench-${name}-task0-trial0`;
  await page.goto(`/traces/${traceId}/label?event=e7`);
  // e7 is the result of get_user_details: its credit is a tiny negative number (about -1e-4)
  await expect.poll(async () => page.getByTestId("credit-e7").getAttribute("data-value")).not.toBe("");
  const value = Number(await page.getByTestId("credit-e7").getAttribute("data-value"));
  expect(value).toBeLessThan(0);
  expect(value).toBeGreaterThan(-0.0005);
  await expect(page.getByTestId("credit-e7")).toHaveText("0");
  const cells = await page.locator("[data-testid^=credit-e]").allInnerTexts();
  expect(cells.length).toBeGreaterThan(20);
  expect(cells.filter((t) => t.trim() === "-0")).toEqual([]);
  await expect(page.getByText(/\(before weights\)/)).not.toContainText(/ -0( |$)/);
});

test("the grader sees what the run was supposed to do: tau-bench's instruction and policy, Who&When's reference answer, a JSON import's task_definition", async ({ page, request }) => {
  const name = `e2e-task-definition-${Date.now()}`;
  const imported = await request.post(`/api/import?name=${name}.json`, { data: readFileSync("../shared/data/tau_bench/gpt-4o-airline.json", "utf8"), headers: { "content-type": "application/json" } });
  expect(imported.status()).toBe(201);
  await page.goto(`/traces/taubench-${name}-task0-trial0/label`);
  await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-event-id", "e1");
  await page.keyboard.press("ArrowLeft");
  await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-unit", "trace");
  await expect(page.getByTestId("unit-context")).toContainText("Task (metadata.labels.task.instruction)");
  await expect(page.getByTestId("trace-task")).toContainText("You are mia_li_3668. You want to fly from New York to Seattle on May 20 (one way).");
  await expect(page.getByTestId("trace-policy")).toContainText("Policy / system prompt (metadata.system_prompt");
  await page.getByTestId("trace-policy").locator("summary").click();
  await expect(page.getByTestId("trace-policy-text")).toContainText("# Airline Agent Policy");
  await expect(page.getByTestId("trace-reference")).toHaveCount(0);

  const whoWhen = await request.post(`/api/import?name=${name}-1.json`, { data: readFileSync("../shared/data/who_and_when/Hand-Crafted/1.json", "utf8"), headers: { "content-type": "application/json" } });
  expect(whoWhen.status()).toBe(201);
  const [stored] = ((await whoWhen.json()) as { traces: { trace_id: string }[] }).traces;
  await page.goto(`/traces/${encodeURIComponent(stored!.trace_id)}/label`);
  await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-event-id", /.+/);
  await page.keyboard.press("ArrowLeft");
  await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-unit", "trace");
  await expect(page.getByTestId("trace-task")).toContainText("Where can I take martial arts classes within a five-minute walk from the New York Stock Exchange");
  await expect(page.getByTestId("trace-reference")).toHaveText("Renzo Gracie Jiu-Jitsu Wall Street");

  // set on a JSON import, shown as text (never as HTML)
  const traceId = `e2e-definition-${Date.now()}`;
  const definition = { instruction: "Find the <b>cheapest</b> flight", reference: "HAT136", policy: "Never book before 11am." };
  expect((await request.post("/api/traces", { data: { ...withContent(traceId), metadata: { task_definition: definition } } })).status()).toBe(201);
  await open(page, traceId);
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByTestId("trace-task")).toHaveText("Find the <b>cheapest</b> flight");
  await expect(page.getByTestId("trace-task").locator("b")).toHaveCount(0);
  await expect(page.getByTestId("trace-reference")).toHaveText("HAT136");
  await expect(page.getByTestId("trace-policy")).toContainText("metadata.task_definition.policy, 23 characters");
});

test("a project's chosen metadata fields appear to graders of a whole trace, after its task definition", async ({ page, request }) => {
  const file = JSON.parse(readFileSync("../shared/data/who_and_when/Algorithm-Generated/1.json", "utf8")) as { level: unknown; question_ID: string };
  const imported = await request.post("/api/import?name=fields-1.json&upsert=1", { data: JSON.stringify(file), headers: { "content-type": "application/json" } });
  expect(imported.status()).toBe(201);
  const id = ((await imported.json()) as { traces: { trace_id: string }[] }).traces[0]!.trace_id;
  try {
    await page.goto("/rubrics?project=default");
    const form = page.getByTestId("grader-fields-form");
    await form.getByLabel("fields, one a line").fill("Level = labels.level\nGAIA id = labels.question_ID\nlabels.no_such_field");
    await form.getByRole("button", { name: "Save fields" }).click();
    await expect(form.getByRole("status")).toHaveText("saved");
    // a path that is no dot path is refused with its place in the list
    await form.getByLabel("fields, one a line").fill("Level = labels..level");
    await form.getByRole("button", { name: "Save fields" }).click();
    await expect(form.getByRole("status")).toContainText("$.fields[0].path");

    await page.goto(`/traces/${encodeURIComponent(id)}/label`);
    // the first event is selected once the page has loaded; from there the left arrow goes to the whole trace
    await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-event-id", /.+/);
    await page.keyboard.press("ArrowLeft");
    await expect(page.locator('[data-testid=label-row][data-selected="true"]')).toHaveAttribute("data-unit", "trace");
    const fields = page.getByTestId("trace-field");
    await expect(fields).toHaveCount(3);
    await expect(fields.nth(0)).toHaveText(`Level${String(file.level)}`);
    await expect(fields.nth(1)).toHaveText(`GAIA id${file.question_ID}`);
    await expect(fields.nth(2)).toHaveText("labels.no_such_field— (not in this run)");
    // the judges' prompt reads the same context
    const context = (await (await request.get(`/api/traces/${encodeURIComponent(id)}/annotations/context`)).json()) as { fields: { label: string; source: string; text: string | null }[] };
    expect(context.fields).toEqual([
      { label: "Level", source: "metadata.labels.level", text: String(file.level) },
      { label: "GAIA id", source: "metadata.labels.question_ID", text: file.question_ID },
      { label: "labels.no_such_field", source: "metadata.labels.no_such_field", text: null },
    ]);
  } finally {
    expect((await request.patch("/api/projects/default/grader-fields", { data: { fields: [] } })).status()).toBe(200);
  }
});
