// Planted-failure program, shape "an aggregation of several workers", written with the
// Vercel AI SDK 6 (ai + @ai-sdk/openai, installed in scripts/frameworks/ai-sdk-6: run
// `npm ci` there) and run unchanged: only the provider's baseURL (OPENAI_BASE_URL) and
// apiKey point it at a model; each agent is its own generateText call, named by the
// provider option `user`. Three workers add up one category of an expense report each
// (side by side), an aggregator totals their sums; an auditor writes a note nobody
// reads (a step that cannot reach the outcome).
// Usage: node planted-aggregation-ai-sdk.mjs <task 1-4>. Graded on the total: prints
// {"final", "success"}, exits 0 on success, 1 on failure.
import { createRequire } from "node:module";

const require = createRequire(new URL("../frameworks/ai-sdk-6/package.json", import.meta.url));
const { generateText } = require("ai");
const { createOpenAI } = require("@ai-sdk/openai");

const TASKS = {
  1: { travel: [120, 80], meals: [12, 30, 8], lodging: [300] },
  2: { travel: [120, 80, 45, 15], meals: [12, 30], lodging: [300] },
  3: { travel: [200], meals: [12, 30, 8, 20], lodging: [150, 150] },
  4: { travel: [60, 40], meals: [25], lodging: [90, 90, 90] },
};
const task = TASKS[process.argv[2] ?? "2"];
if (!task) throw new Error(`no such task: ${process.argv[2]}`);
const provider = createOpenAI({ baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY ?? "none" });
const model = provider.chat("planted-model");
const agent = async (name, system, prompt) => (await generateText({ model, system, prompt, providerOptions: { openai: { user: name } } })).text;

const categories = Object.keys(task);
const sums = await Promise.all(categories.map((c) => agent(`worker-${c}`, "You are an adding worker. Reply 'Sum: <n>'.", `Items: ${task[c].join(", ")}`)));
const total = await agent("aggregator", "You are the aggregator. Total the parts. Reply 'Total: <n>'.", categories.map((c, i) => `${c}: ${sums[i]}`).join("\n"));
await agent("auditor", "You are the auditor. Note that the report was received.", `Report with ${categories.length} categories.`);

const expected = categories.reduce((s, c) => s + task[c].reduce((a, b) => a + b, 0), 0);
const final = total;
const success = new RegExp(`Total: ${expected}\\b`).test(final);
console.log(JSON.stringify({ final, success }));
process.exit(success ? 0 : 1);
