// Planted-failure program, shape "delegation" (docs/replay.md "Planted-failure
// benchmark"): a manager routes a customer's request to a specialist (billing or
// shipping), the specialist answers, a responder writes the reply to the customer from
// the specialist's answer; a ticket logger, first of all, writes a line nobody reads (a
// step that cannot reach the outcome). Plain Node and fetch.
// Usage: node planted-delegation.mjs <task 1-4>. Graded on whether the reply solves the
// request: prints {"final", "success"}, exits 0 on success, 1 on failure.
const base = (process.env.OPENAI_BASE_URL ?? "http://127.0.0.1:3000/api/llm/v1").replace(/\/+$/, "");
const key = process.env.OPENAI_API_KEY ?? "none";
const TASKS = {
  1: { request: "Where is my order 12?", solved: /ships on Thursday/i },
  2: { request: "I was charged twice for order 5.", solved: /refund issued/i },
  3: { request: "Please refund my last payment.", solved: /refund issued/i },
  4: { request: "My order 9 was billed twice, refund me.", solved: /refund issued/i },
};
const task = TASKS[process.argv[2] ?? "2"];
if (!task) throw new Error(`no such task: ${process.argv[2]}`);

async function chat(agent, messages) {
  const response = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "x-baton-agent": agent },
    body: JSON.stringify({ model: "planted-model", messages }),
  });
  if (!response.ok) throw new Error(`${agent}: ${response.status} ${await response.text()}`);
  return (await response.json()).choices[0].message;
}

await chat("ticket-log", [{ role: "system", content: "You keep the ticket log. Write one line." }, { role: "user", content: task.request }]);
const route = await chat("manager", [{ role: "system", content: "You are the manager. Route the request: reply 'Delegate: billing' or 'Delegate: shipping'." }, { role: "user", content: task.request }]);
const specialist = /Delegate:\s*(billing|shipping)/.exec(route.content ?? "")?.[1] ?? "shipping";
const answer = await chat(specialist, [{ role: "system", content: `You are the ${specialist} specialist. Handle the request.` }, { role: "user", content: task.request }]);
const reply = await chat("responder", [{ role: "system", content: "You are the responder. Write the reply to the customer." }, { role: "user", content: `Request: ${task.request}\nSpecialist: ${answer.content}` }]);

const final = reply.content ?? "";
const success = task.solved.test(final);
console.log(JSON.stringify({ final, success }));
process.exit(success ? 0 : 1);
