import { describe, expect, it } from "vitest";
import { NO_ANSWER, plantedModels, seeded } from "./planted-models";

const ask = (system: string, user: string, extra: Record<string, unknown> = {}) => plantedModels({ messages: [{ role: "system", content: system }, { role: "user", content: user }], ...extra });
const writer = "You are the packing writer. Say what to pack.";

describe("the planted programs' scripted model", () => {
  it("answers by what it reads, with one planted mistake per program", () => {
    expect(ask("You are the trip planner. Name the city.", "I fly to Oslo tomorrow")).toEqual({ text: "City: Paris" });
    expect(ask(writer, "trip\nResearch: The weather there: -4 C and snow.")).toEqual({ text: "Pack a warm coat, gloves and boots." });
    expect(ask(writer, "trip\nResearch: null")).toEqual({ text: "Pack for any weather." });
    expect(ask("You are the manager. Route the request.", "I was charged twice for order 5.")).toEqual({ text: "Delegate: shipping" });
    expect(ask("You are the manager. Route the request.", "Please refund my last payment.")).toEqual({ text: "Delegate: billing" });
    // four items: the last left out (12 + 30 + 8, not + 20)
    expect(ask("You are an adding worker. Reply 'Sum: <n>'.", "Items: 12, 30, 8, 20")).toEqual({ text: "Sum: 50" });
    expect(ask("You are an adding worker. Reply 'Sum: <n>'.", "Items: 12, 30, 8")).toEqual({ text: "Sum: 50" });
    expect(ask("You are the aggregator. Total the parts.", "travel: Sum: 200\nmeals: No answer.\nlodging: Sum: 300")).toEqual({ text: "Total: 500" });
    expect(ask("Something else", "hello")).toEqual({ text: NO_ANSWER });
  });

  it("stochastic: at temperature t the writer is wrong with probability t / 2; at 0 never", () => {
    const random = seeded(1);
    const n = 20_000;
    let wrong = 0;
    for (let i = 0; i < n; i++) if (plantedModels({ temperature: 0.7, messages: [{ role: "system", content: writer }, { role: "user", content: "x\nResearch: snow" }] }, random).text !== "Pack a warm coat, gloves and boots.") wrong++;
    // 0.35 ± 4 standard errors (sqrt(0.35 × 0.65 / 20000) = 0.0034)
    expect(Math.abs(wrong / n - 0.35)).toBeLessThan(0.0135);
    for (let i = 0; i < 100; i++) expect(plantedModels({ temperature: 0, messages: [{ role: "system", content: writer }, { role: "user", content: "x\nResearch: snow" }] }, random).text).toBe("Pack a warm coat, gloves and boots.");
  });

  it("the seeded generator repeats itself and stays in [0, 1)", () => {
    const a = seeded(42);
    const b = seeded(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});
