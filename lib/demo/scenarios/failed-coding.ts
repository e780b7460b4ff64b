import type { ObjectMetadataTrace } from "../../trace/types";
import { TraceBuilder } from "../../trace/builder";
import { DEMO_SOURCE } from "../source";
import { Rng } from "../../util/random";
import { llmTurn, toolChain, toolRound } from "../steps";

/**
 * Scenario (b): a planner/coder/tester run on a bug fix that fails. The
 * tester's sandbox blocks a pip install (safety_event), run_tests fails
 * (tool_result status "error"), a human reviewer intervenes, and the
 * orchestrator stops on budget_exhausted while coder and tester have not
 * returned: the "premature" stop verdict. The coder re-sends its hand-off
 * (message_redundancy 0.25), so even the uniform preset blames the run.
 */

const ORCHESTRATOR = { agent: "orchestrator", role: "orchestrator" } as const;
const PLANNER = { agent: "planner", role: "planner" } as const;
const CODER = { agent: "coder", role: "coder" } as const;
const TESTER = { agent: "tester", role: "tester" } as const;

const PATCH = `--- a/src/timeutil/parse.py
+++ b/src/timeutil/parse.py
@@ -41,9 +41,11 @@ def parse_duration(text: str) -> float:
-    m = re.fullmatch(r"(\\d+)h(\\d+)m", text)
-    if not m:
-        raise ValueError(f"bad duration: {text!r}")
-    return int(m[1]) * 3600.0 + int(m[2]) * 60.0
+    parts = re.findall(r"(\\d+)([hms])", text)
+    if not parts or "".join(n + u for n, u in parts) != text:
+        raise ValueError(f"bad duration: {text!r}")
+    scale = {"h": 3600, "m": 60, "s": 1}
+    return sum(int(n) * scale[u] for n, u in parts)`;

/** 14476 -> "14,476", without depending on the runtime's locale data. */
const withThousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** The failed coding run of scenario (b). */
export function failedCodingTrace(): ObjectMetadataTrace {
  const rng = new Rng(0x5eed_b);
  const b = new TraceBuilder({ source: DEMO_SOURCE });

  const kickoff = llmTurn(b, rng, {
    t: 0,
    type: "orchestrator_decision",
    ...ORCHESTRATOR,
    decision: "spawn",
    content: "Issue #412: parse_duration('1h30m') works but '90s' and '2h' raise ValueError. Spawning a planner to localise the bug before any code is written.",
    tokens: 640,
  });
  const spawnPlanner = b.add(
    { t: b.endOf(kickoff) + 0.1, type: "spawn", ...ORCHESTRATOR, to: PLANNER.agent, content: "Localise the bug behind issue #412 and write a step-by-step fix plan.", tokens: 120 },
    [kickoff, "spawn"],
  );
  const planning = toolChain(b, rng, PLANNER, spawnPlanner, "spawn", [
    { tool: "repo.grep", input: 'repo.grep(pattern="def parse_duration", path="src/")', output: "src/timeutil/parse.py:41: def parse_duration(text: str) -> float:\nsrc/scheduler/cron.py:12: from timeutil.parse import parse_duration" },
    {
      tool: "read_file",
      input: 'read_file(path="src/timeutil/parse.py", start=38, end=52)',
      output: '41 def parse_duration(text: str) -> float:\n42     m = re.fullmatch(r"(\\d+)h(\\d+)m", text)\n43     if not m:\n44         raise ValueError(f"bad duration: {text!r}")\n45     return int(m[1]) * 3600.0 + int(m[2]) * 60.0',
    },
  ]);
  const plan = llmTurn(
    b,
    rng,
    {
      t: b.endOf(planning[1]!.result) + 0.5,
      type: "return",
      ...PLANNER,
      from: PLANNER.agent,
      to: ORCHESTRATOR.agent,
      content: "Plan: (1) the regex only accepts '<h>h<m>m'; replace it with a tokenizer over (\\d+)([hms]). (2) keep rejecting junk like '5x'. (3) add tests for '90s', '2h', '1h30m', '5x'. Caller: scheduler/cron.py.",
      tokens: 1350,
    },
    [planning[1]!.result, "causal"],
  );

  const delegate = llmTurn(
    b,
    rng,
    { t: b.endOf(plan) + 0.2, type: "orchestrator_decision", ...ORCHESTRATOR, decision: "delegate", content: "Plan accepted. Delegating the patch to a coder and verification to a tester.", tokens: 410 },
    [plan, "causal"],
  );
  const spawnCoder = b.add(
    { t: b.endOf(delegate) + 0.1, type: "spawn", ...ORCHESTRATOR, to: CODER.agent, content: "Implement the planner's fix for #412 in src/timeutil/parse.py.", tokens: 150 },
    [delegate, "spawn"],
  );
  const spawnTester = b.add(
    { t: b.endOf(delegate) + 0.15, type: "spawn", ...ORCHESTRATOR, to: TESTER.agent, content: "Prepare the test environment; run tests/test_parse.py once the coder reports a patch.", tokens: 130 },
    [delegate, "spawn"],
  );

  const [readBack] = toolChain(b, rng, CODER, spawnCoder, "spawn", [
    { tool: "read_file", input: 'read_file(path="src/scheduler/cron.py", start=1, end=40)', output: "12 from timeutil.parse import parse_duration\n27     interval = parse_duration(spec) / 60  # minutes, float division" },
  ]);
  const review = b.add(
    {
      t: b.endOf(readBack!.result) + 1.5,
      type: "human_intervention",
      agent: "human:maria",
      role: "reviewer",
      to: CODER.agent,
      content: "Reviewer note: keep the return type float; scheduler/cron.py divides the result and its tests compare against floats.",
      tokens: 0,
    },
    [readBack!.result, "causal"],
  );
  const patch = toolRound(b, rng, CODER, b.timeOf(review) + 2.2, { tool: "apply_patch", input: PATCH, output: "Applied: src/timeutil/parse.py | 1 file changed, 5 insertions(+), 3 deletions(-)" }, [review, "causal"], [readBack!.result, "tool_dependency"]);
  const handoff = llmTurn(
    b,
    rng,
    { t: b.endOf(patch.result) + 0.4, type: "message", ...CODER, from: CODER.agent, to: TESTER.agent, content: "Patch applied to parse.py. Please run tests/test_parse.py -q and report failures verbatim.", tokens: 260 },
    [patch.result, "causal"],
  );

  // The tester is stuck behind the blocked install, so the coder's framework
  // re-sends the same hand-off: a redundant (and dead) message, as failed runs have.
  // Added with explicit times, so that the random draws of later steps stay as they were.
  const resentAt = b.endOf(handoff) + 3;
  b.add({ t: resentAt, t_end: resentAt + 0.9, type: "message", ...CODER, from: CODER.agent, to: TESTER.agent, content: "Patch applied to parse.py. Please run tests/test_parse.py -q and report failures verbatim.", tokens: 260 }, [handoff, "causal"]);

  const install = toolRound(b, rng, TESTER, b.endOf(spawnTester) + 1.1, { tool: "shell", input: "pip install pytest-timeout==2.3.1", output: "ERROR: Could not install packages due to an OSError: HTTPSConnectionPool(host='pypi.org', port=443): network is unreachable", status: "error", latency: 4.2 }, [spawnTester, "spawn"]);
  const blocked = b.add(
    { t: b.timeOf(install.call) + 0.05, type: "safety_event", agent: "sandbox", role: "guardrail", content: "Blocked outbound connection tester -> pypi.org:443 (policy: no network egress during evaluation).", status: "blocked", tokens: 0 },
    [install.call, "safety_flow"],
  );
  const runTests = toolRound(
    b,
    rng,
    TESTER,
    Math.max(b.endOf(handoff), b.timeOf(install.result)) + 0.8,
    {
      tool: "run_tests",
      input: "run_tests(cmd=\"pytest tests/test_parse.py -q -p no:timeout\")",
      output: "..F.F\nFAILED tests/test_parse.py::test_returns_float - assert isinstance(5400, float)\nFAILED tests/test_parse.py::test_allows_spaces - ValueError: bad duration: '1h 30m'\n2 failed, 3 passed in 0.41s",
      status: "error",
      latency: 6.4,
    },
    [handoff, "message"],
    [install.result, "tool_dependency"],
    [blocked, "safety_flow"],
  );
  const report = llmTurn(
    b,
    rng,
    { t: b.endOf(runTests.result) + 0.6, type: "message", ...TESTER, from: TESTER.agent, to: CODER.agent, content: "2 of 5 fail: sum() returns int but test_returns_float expects float (as the reviewer said), and '1h 30m' with a space is now rejected.", tokens: 540 },
    [runTests.result, "causal"],
  );
  const retry = llmTurn(
    b,
    rng,
    { t: b.endOf(report) + 0.3, type: "message", ...CODER, from: CODER.agent, to: TESTER.agent, content: "Understood, preparing v2: return float(sum(...)) and drop whitespace before matching. Patch in ~1 min.", tokens: 1900 },
    [report, "message"],
  );

  const used = b.tokensSoFar();
  const budget = Math.floor(used / 1000) * 1000;
  llmTurn(
    b,
    rng,
    {
      t: b.endOf(retry) + 0.2,
      type: "orchestrator_decision",
      ...ORCHESTRATOR,
      decision: "stop",
      reason: "budget_exhausted",
      content: `Token budget of ${withThousands(budget)} exhausted (${withThousands(used)} used). Stopping before the v2 patch is written or verified; coder and tester have not returned.`,
      tokens: 180,
    },
    [report, "causal"],
  );

  return b.build({
    trace_id: "demo-coding-parse-duration-failed",
    task_id: "swe-fix-issue-412-parse-duration",
    system: "forge-swe-agents",
    topology: "planner_executor_critic",
    rewards: { team: -1 },
    metrics: { task_success: 0 },
    metadata: { run: "demo-b", task: "Fix issue #412: parse_duration rejects '90s' and '2h'." },
  });
}
