import type { ScriptedAnswer } from "../lib/scripted-openai";

/**
 * The scripted model behind the planted-failure benchmark's programs
 * (planted-trip.mjs, planted-delegation.mjs, planted-aggregation-ai-sdk.mjs;
 * docs/replay.md "Planted-failure benchmark"), for a scripted upstream
 * (scripts/lib/scripted-openai.ts). Its replies depend on what it reads, so
 * an edit upstream of a call changes what the call says. One planted
 * mistake per program:
 * - trip: the planner names Paris whatever the trip;
 * - delegation: the manager sends any request that mentions an order to
 *   shipping, a double charge on an order too;
 * - aggregation: a worker given four items leaves the last one out.
 * With `random` (a number in [0, 1) per call) and a request temperature
 * above 0, the packing writer is wrong with probability temperature / 2
 * (the stochastic model of docs/replay.md "Stochastic replies").
 */
type Msg = { role: string; content: unknown; tool_calls?: unknown[] };

const textOf = (content: unknown): string =>
  typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => (typeof p === "object" && p !== null && "text" in p ? String((p as { text: unknown }).text) : "")).join("") : "";

export const NO_ANSWER = "No answer.";

export function plantedModels(body: Record<string, unknown>, random?: () => number): ScriptedAnswer {
  const messages = (body.messages ?? []) as Msg[];
  const system = textOf(messages[0]?.role === "system" ? messages[0].content : "");
  const last = messages.at(-1);
  const lastText = textOf(last?.content);
  const temperature = typeof body.temperature === "number" ? body.temperature : 0;

  // trip
  if (system.includes("trip planner")) return { text: "City: Paris" };
  if (system.includes("weather researcher")) {
    if (last?.role === "tool") return { text: `The weather there: ${lastText}.` };
    const city = /Weather in (\w+)/.exec(lastText)?.[1] ?? "unknown";
    return { tools: [{ name: "get_weather", args: { city } }] };
  }
  if (system.includes("packing writer")) {
    const research = /Research: (.*)$/m.exec(lastText)?.[1] ?? "";
    const right = /snow/.test(research) ? "Pack a warm coat, gloves and boots." : /sunny/.test(research) ? "Pack light clothes and sunglasses." : "Pack for any weather.";
    if (random !== undefined && temperature > 0 && random() < temperature / 2) return { text: right.startsWith("Pack a warm") ? "Pack light clothes and sunglasses." : "Pack a warm coat, gloves and boots." };
    return { text: right };
  }
  // delegation
  if (system.includes("You are the manager")) return { text: /order/i.test(lastText) ? "Delegate: shipping" : /charge|refund|bill/i.test(lastText) ? "Delegate: billing" : "Delegate: shipping" };
  if (system.includes("billing specialist")) return { text: /charge|refund|bill/i.test(lastText) ? "Refund issued for the duplicate charge." : "I only handle payments." };
  if (system.includes("shipping specialist")) return { text: /where/i.test(lastText) ? "Your order ships on Thursday." : "I only handle deliveries; I cannot help with charges." };
  if (system.includes("responder")) {
    const said = /Specialist: (.*)$/m.exec(lastText)?.[1] ?? "";
    return { text: said === "" || said === "null" || said === NO_ANSWER ? "Dear customer, we are looking into it." : `Dear customer, ${said.charAt(0).toLowerCase()}${said.slice(1)}` };
  }
  // aggregation
  if (system.includes("adding worker")) {
    const items = (/Items: (.*)$/m.exec(lastText)?.[1] ?? "").split(",").map((s) => Number(s.trim())).filter((n) => Number.isFinite(n));
    const counted = items.length === 4 ? items.slice(0, 3) : items;
    return { text: `Sum: ${counted.reduce((a, b) => a + b, 0)}` };
  }
  if (system.includes("aggregator")) {
    const sums = [...lastText.matchAll(/Sum: (-?\d+)/g)].map((m) => Number(m[1]));
    return { text: `Total: ${sums.reduce((a, b) => a + b, 0)}` };
  }
  // the side steps nobody reads
  if (system.includes("travel log") || system.includes("ticket log")) return { text: `Logged: ${lastText.slice(0, 60)}` };
  if (system.includes("auditor")) return { text: "Noted: report received." };
  return { text: NO_ANSWER };
}

/** A seeded generator in [0, 1) (mulberry32): the stochastic model's draws, the same on every run of the benchmark. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
