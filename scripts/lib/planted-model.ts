import type { ScriptedAnswer } from "./scripted-openai";

/**
 * The model behind scripts/replay/planted-agents.mjs, for a scripted
 * upstream: its replies depend on what it reads. The planted failure: as
 * planner it names Paris whatever the trip (a wrong step early in the run);
 * everything after follows from what it is given, so a corrected planner
 * reply turns the run into a success.
 */
export function plantedModel(body: Record<string, unknown>): ScriptedAnswer {
  const messages = body.messages as { role: string; content: string | null }[];
  const system = messages[0]?.content ?? "";
  const last = messages.at(-1)!;
  if (system.includes("planner")) return { text: "City: Paris" };
  if (system.includes("researcher")) {
    if (last.role === "tool") return { text: `The weather there: ${last.content}.` };
    const city = /Weather in (\w+)/.exec(last.content ?? "")?.[1] ?? "unknown";
    return { tools: [{ name: "get_weather", args: { city } }] };
  }
  return { text: /snow/.test(last.content ?? "") ? "Pack a warm coat, gloves and boots." : "Pack light clothes and sunglasses." };
}
