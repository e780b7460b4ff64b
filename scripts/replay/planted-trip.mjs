// Planted-failure program, shape "a tool call whose result is used" (docs/replay.md
// "Planted-failure benchmark"): a planner names the city of a trip, a researcher looks
// its weather up with a tool, a writer says what to pack from the researcher's answer;
// a travel log agent, between the planner and the researcher, writes a line nobody reads
// (a step that cannot reach the outcome).
// Plain Node and fetch: only OPENAI_BASE_URL (and OPENAI_API_KEY) point it at a model.
// Usage: node planted-trip.mjs <Oslo|Paris|Tromso>. Graded on whether the advice fits
// the city's weather: prints {"final", "success"}, exits 0 on success, 1 on failure.
const base = (process.env.OPENAI_BASE_URL ?? "http://127.0.0.1:3000/api/llm/v1").replace(/\/+$/, "");
const key = process.env.OPENAI_API_KEY ?? "none";
const WEATHER = { Paris: "18 C and sunny", Oslo: "-4 C and snow", Tromso: "-9 C and snow" };
const NEEDS = { Paris: /light clothes/i, Oslo: /warm coat/i, Tromso: /warm coat/i };
const TOOLS = [{ type: "function", function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];
const destination = process.argv[2] ?? "Oslo";
if (!(destination in WEATHER)) throw new Error(`no such trip: ${destination}`);

async function chat(agent, messages, tools) {
  const response = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "x-baton-agent": agent },
    body: JSON.stringify({ model: "planted-model", messages, ...(tools && { tools }) }),
  });
  if (!response.ok) throw new Error(`${agent}: ${response.status} ${await response.text()}`);
  return (await response.json()).choices[0].message;
}

const trip = `I fly to ${destination} tomorrow for a week. What should I pack?`;
const plan = await chat("planner", [{ role: "system", content: "You are the trip planner. Name the city of the trip as 'City: <name>'." }, { role: "user", content: trip }]);
const city = /City:\s*(\w+)/.exec(plan.content ?? "")?.[1] ?? "unknown";
// the travel log: written, never read by anyone
await chat("log", [{ role: "system", content: "You keep the travel log. Write one line." }, { role: "user", content: trip }]);

const asked = [{ role: "system", content: "You are the weather researcher. Look up the weather." }, { role: "user", content: `Weather in ${city}?` }];
const lookup = await chat("researcher", asked, TOOLS);
const results = (lookup.tool_calls ?? []).map((c) => ({ role: "tool", tool_call_id: c.id, content: WEATHER[JSON.parse(c.function.arguments).city] ?? "no data" }));
const research = await chat("researcher", [...asked, lookup, ...results], TOOLS);

const advice = await chat("writer", [{ role: "system", content: "You are the packing writer. Say what to pack." }, { role: "user", content: `${trip}\nResearch: ${research.content}` }]);

const final = advice.content ?? "";
const success = NEEDS[destination].test(final);
console.log(JSON.stringify({ final, success }));
process.exit(success ? 0 : 1);
