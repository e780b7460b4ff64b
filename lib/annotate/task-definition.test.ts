import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { collect, data } from "../adapters/fixtures";
import { taskDefinition } from "./task-definition";

describe("taskDefinition", () => {
  it("tau-bench: the user's instruction that defines success and the airline policy, not the simulator's greeting", async () => {
    const [run] = await collect("taubench", data("tau_bench/gpt-4o-airline.json"));
    const raw = (JSON.parse(readFileSync(data("tau_bench/gpt-4o-airline.json"), "utf8")) as { info: { task: { instruction: string } }; traj: { content: string }[] }[])[0]!;
    const d = taskDefinition(run!.metadata);
    expect(d.instruction).toEqual({ text: raw.info.task.instruction, source: "metadata.labels.task.instruction" });
    expect(d.instruction!.text.startsWith("You are mia_li_3668. You want to fly from New York to Seattle on May 20 (one way).")).toBe(true);
    expect(d.policy).toEqual({ text: raw.traj[0]!.content, source: "metadata.system_prompt" });
    expect(d.policy!.text.startsWith("# Airline Agent Policy")).toBe(true);
    // this task's expected outputs are [] : no reference answer is made up
    expect(d.reference).toBeNull();
  });

  it("Who&When: the question and its reference answer; Algorithm-Generated runs add each agent's system prompt", async () => {
    const [hand] = await collect("whowhen", data("who_and_when/Hand-Crafted/1.json"));
    const d = taskDefinition(hand!.metadata);
    expect(d.instruction?.source).toBe("metadata.labels.question");
    expect(d.instruction?.text.startsWith("Where can I take martial arts classes within a five-minute walk from the New York Stock Exchange")).toBe(true);
    expect(d.reference).toEqual({ text: "Renzo Gracie Jiu-Jitsu Wall Street", source: "metadata.labels.ground_truth" });
    expect(d.policy).toBeNull();
    const [generated] = await collect("whowhen", data("who_and_when/Algorithm-Generated/17.json"));
    const g = taskDefinition(generated!.metadata);
    expect(g.reference).toEqual({ text: "56000", source: "metadata.labels.ground_truth" });
    expect(g.policy?.source).toBe("metadata.system_prompt");
    expect(g.policy?.text.startsWith("MarineBiology_Expert:\n## Your role\nMarineBiology_Expert is a seasoned")).toBe(true);
  });

  it("metadata.task_definition, settable on any import, comes first; the usual keys are the fallback", () => {
    const set = { task_definition: { instruction: "Book the cheapest flight", reference: "HAT136", policy: "Never book before 11am" }, question: "ignored", system_prompt: "ignored" };
    expect(taskDefinition(set)).toEqual({
      instruction: { text: "Book the cheapest flight", source: "metadata.task_definition.instruction" },
      reference: { text: "HAT136", source: "metadata.task_definition.reference" },
      policy: { text: "Never book before 11am", source: "metadata.task_definition.policy" },
    });
    expect(taskDefinition({ question: "What is the answer?" }).instruction).toEqual({ text: "What is the answer?", source: "metadata.question" });
    expect(taskDefinition({ task: "   ", prompt: "p" }).instruction?.source).toBe("metadata.prompt");
    expect(taskDefinition(null)).toEqual({ instruction: null, reference: null, policy: null });
    // structures that are not text are never shown as one
    expect(taskDefinition({ task_definition: { instruction: { nested: 1 } }, reference: [1, { a: 2 }] })).toEqual({ instruction: null, reference: null, policy: null });
  });
});
