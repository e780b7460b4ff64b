// A small multi-agent program with a planted failure (docs/replay.md "Planted failure"):
// a planner names the city, a researcher looks its weather up with a tool, a writer
// says what to pack. Plain Node and fetch: only OPENAI_BASE_URL (and OPENAI_API_KEY)
// point it at a model. Graded on whether the advice fits the trip (Oslo in winter):
// prints {"final", "success"} and exits 0 on success, 1 on failure.
const base = (process.env.OPENAI_BASE_URL ?? "http://127.0.0.1:3000/api/llm/v1").replace(/\/+$/, "");
const key = process.env.OPENAI_API_KEY ?? "none";
const WEATHER = { Paris: "18 C and sunny", Oslo: "-4 C and snow" };
const TOOLS = [{ type: "function", function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];

async function chat(agent, messages, tools) {
  const response = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "x-baton-agent": agent },
    body: JSON.stringify({ model: "planted-model", messages, ...(tools && { tools }) }),
  });
  if (!response.ok) throw new Error(`${agent}: ${response.status} ${await response.text()}`);
  return (await response.json()).choices[0].message;
}

const trip = "I fly to Oslo tomorrow for a week. What should I pack?";
const plan = await chat("planner", [{ role: "system", content: "You are the planner. Name the city of the trip as 'City: <name>'." }, { role: "user", content: trip }]);
const city = /City:\s*(\w+)/.exec(plan.content ?? "")?.[1] ?? "unknown";

const asked = [{ role: "system", content: "You are the researcher. Look up the weather." }, { role: "user", content: `Weather in ${city}?` }];
const lookup = await chat("researcher", asked, TOOLS);
const results = (lookup.tool_calls ?? []).map((c) => ({ role: "tool", tool_call_id: c.id, content: WEATHER[JSON.parse(c.function.arguments).city] ?? "no data" }));
const research = await chat("researcher", [...asked, lookup, ...results], TOOLS);

const advice = await chat("writer", [{ role: "system", content: "You are the writer. Say what to pack." }, { role: "user", content: `${trip}\nResearch: ${research.content}` }]);
const final = advice.content ?? "";
const success = /warm coat/i.test(final);
console.log(JSON.stringify({ final, success }));
process.exit(success ? 0 : 1);
