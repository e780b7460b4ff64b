import { describe, expect, it } from "vitest";
import { computeMetrics } from "../metrics";
import { replaceUnstorable } from "./text";
import { validateTrace, type ValidationResult } from "./validate";

/** A small valid trace; `patch` edits a fresh copy. */
function base(patch: (t: Record<string, unknown> & { events: Record<string, unknown>[] }) => void = () => {}) {
  const trace = {
    trace_id: "t1",
    task_id: "task",
    events: [
      { id: "a", t: 0, type: "message", agent: "A", content: "hi" },
      { id: "b", t: 1, type: "message", agent: "B", content: "there" },
    ],
    edges: [{ src: "a", dst: "b", type: "message" }],
    rewards: {},
    costs: { tokens: 0, wall_clock_s: 0 },
  };
  patch(trace);
  return trace;
}

function problems(r: ValidationResult) {
  return r.ok ? [] : r.problems;
}

describe("text replacement (SPEC.md section 1)", () => {
  it("replaces U+0000 and lone surrogates by U+FFFD, keeping pairs", () => {
    expect(replaceUnstorable("a\u0000b")).toBe("a\ufffdb");
    expect(replaceUnstorable("x\ud800")).toBe("x\ufffd");
    expect(replaceUnstorable("\udc00y")).toBe("\ufffdy");
    expect(replaceUnstorable("\ud83d\ude00")).toBe("\ud83d\ude00");
    expect(replaceUnstorable("\udc00\ud800")).toBe("\ufffd\ufffd");
  });

  it("computes metrics on the replaced text: hi\\u0000 and hi\\uFFFD are one message key", () => {
    const r = validateTrace(base((t) => {
      t.events[0]!.content = "hi\u0000";
      t.events[1]!.content = "hi\ufffd";
    }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.trace.events[0]!.content).toBe("hi\ufffd");
    expect(r.warnings).toContainEqual(expect.objectContaining({ path: "$.events[0].content" }));
    // 2 messages, 1 distinct key: 1 - 1/2
    expect(computeMetrics(r.trace).e3.message_redundancy).toBe(0.5);
  });

  it("replaces in every string and key, content_ref and metadata included, each with a warning naming its path", () => {
    const r = validateTrace(base((t) => {
      t.events[0]!.content_ref = "ref\u0000";
      t.metadata = { "k\u0000": ["\ud800"] };
    }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.trace.events[0]!.content_ref).toBe("ref\ufffd");
    expect(r.trace.metadata).toEqual({ "k\ufffd": ["\ufffd"] });
    const paths = r.warnings.map((w) => w.path);
    expect(paths).toEqual(expect.arrayContaining(["$.events[0].content_ref", '$.metadata["k\ufffd"]', '$.metadata["k\ufffd"][0]']));
  });

  it("treats ids that become equal through the replacement as a duplicate id", () => {
    const r = validateTrace(base((t) => {
      t.events[0]!.id = "a\u0000";
      t.events[1]!.id = "a\ufffd";
      t.edges = [];
    }));
    expect(problems(r)).toContainEqual({ path: "$.events[1].id", message: 'duplicate event id "a\ufffd" (first at events[0])' });
  });
});

describe("limits (SPEC.md section 1)", () => {
  it("accepts identifiers of 512 characters and rejects 513, with the path", () => {
    expect(validateTrace(base((t) => (t.task_id = "x".repeat(512)))).ok).toBe(true);
    for (const [field, set] of [
      ["trace_id", (t: Record<string, unknown>) => (t.trace_id = "x".repeat(513))],
      ["system", (t: Record<string, unknown>) => (t.system = "x".repeat(513))],
      ["project", (t: Record<string, unknown>) => (t.project = "x".repeat(513))],
      ["group_id", (t: Record<string, unknown>) => (t.group_id = "x".repeat(513))],
    ] as const) {
      expect(problems(validateTrace(base(set))).map((p) => p.path), field).toEqual([`$.${field}`]);
    }
    for (const field of ["agent", "role", "tool", "content_ref"]) {
      const r = validateTrace(base((t) => (t.events[1]![field] = "y".repeat(513))));
      expect(problems(r).map((p) => p.path), field).toEqual([`$.events[1].${field}`]);
    }
  });

  it("accepts numbers of magnitude 1e15 and rejects larger ones and non-finite ones", () => {
    expect(validateTrace(base((t) => {
      t.events[1]!.t = 1e15;
      t.rewards = { team: -1e15 };
      t.metrics = { x: 1e15 };
    })).ok).toBe(true);
    const r = validateTrace(base((t) => {
      t.events[1]!.t = 1e15 + 2;
      t.events[1]!.tokens = 2e15;
      t.costs = { tokens: 0, wall_clock_s: 0, usd: 1e16 };
      t.rewards = { team: -1e16 };
      t.metrics = { x: Number.POSITIVE_INFINITY };
      t.events[0]!.rewards = { custom: 1e300 };
    }));
    expect(problems(r).map((p) => p.path).sort()).toEqual(
      ["$.costs.usd", "$.events[0].rewards.custom", "$.events[1].t", "$.events[1].tokens", "$.metrics.x", "$.rewards.team"].sort(),
    );
  });

  it("rejects nesting beyond 64 levels with the path, and accepts 64", () => {
    const nest = (levels: number): unknown => {
      let v: unknown = 1;
      for (let i = 0; i < levels; i++) v = [v];
      return v;
    };
    // the trace object is level 1, metadata's value level 2: 63 arrays there make 64 levels
    expect(validateTrace(base((t) => (t.metadata = nest(63)))).ok).toBe(true);
    const r = validateTrace(base((t) => (t.metadata = nest(64))));
    expect(problems(r)).toEqual([{ path: `$.metadata${"[0]".repeat(63)}`, message: "JSON nesting deeper than 64 levels" }]);
    // far deeper: no stack overflow
    expect(problems(validateTrace(base((t) => (t.metadata = nest(100_000))))).length).toBe(1);
  });
});

describe("leniency (SPEC.md section 1)", () => {
  it("takes any JSON value as metadata", () => {
    for (const metadata of [null, 3, "text", [1, { a: 2 }], true]) {
      const r = validateTrace(base((t) => (t.metadata = metadata)));
      expect(r.ok, JSON.stringify(metadata)).toBe(true);
      if (r.ok) expect(r.trace.metadata).toEqual(metadata);
    }
  });

  it("keeps an unknown decision and reason with a warning: neither stop nor continue, reason counted as other", () => {
    const r = validateTrace(base((t) => {
      t.events.push({ id: "s", t: 2, type: "orchestrator_decision", agent: "A", decision: "halt", reason: "tired" });
      t.events.push({ id: "s2", t: 3, type: "orchestrator_decision", agent: "A", decision: "stop", reason: "tired" });
      t.edges = [{ src: "a", dst: "b", type: "message" }, { src: "b", dst: "s", type: "causal" }, { src: "s", dst: "s2", type: "causal" }];
    }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.trace.events[2]).toMatchObject({ decision: "halt", reason: "tired" });
    expect(r.warnings.map((w) => w.path)).toEqual(expect.arrayContaining(["$.events[2].decision", "$.events[2].reason", "$.events[3].reason"]));
    const m = computeMetrics(r.trace);
    // the stop event is s2 (t = 3); "halt" is no stop
    expect(m.stop.stop_t).toBe(3);
    expect(m.stop.stop_reason).toBe("other");
  });

  it("keeps unknown event reward keys with a warning; family values stay in [-1, 1]", () => {
    const r = validateTrace(base((t) => (t.events[0]!.rewards = { novelty: 7, step_quality: 0.5 })));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.trace.events[0]!.rewards).toEqual({ novelty: 7, step_quality: 0.5 });
      expect(r.warnings).toContainEqual({ path: "$.events[0].rewards.novelty", message: '"novelty" is not a reward family: kept and exported, enters no credit' });
    }
    expect(problems(validateTrace(base((t) => (t.events[0]!.rewards = { step_quality: 1.5 }))))).toEqual([{ path: "$.events[0].rewards.step_quality", message: "must be in [-1, 1]" }]);
  });

  it("names the place of unknown fields: top level, or an edge", () => {
    const top = problems(validateTrace(base((t) => (t.extra = 1))));
    expect(top[0]!.message).toContain("top-level fields");
    const edge = problems(validateTrace(base((t) => (t.edges = [{ src: "a", dst: "b", type: "message", weight: 1 }]))));
    expect(edge).toEqual([{ path: "$.edges[0]", message: 'unknown field(s) "weight"; the paper\'s schema allows no other fields here' }]);
  });

  it("limits an event's status to 512 characters, with the path (it is indexed)", () => {
    expect(validateTrace(base((t) => (t.events[0]!.status = "e".repeat(512)))).ok).toBe(true);
    expect(problems(validateTrace(base((t) => (t.events[0]!.status = "e".repeat(2800)))))).toEqual([{ path: "$.events[0].status", message: "at most 512 characters" }]);
  });

  it("refuses a __proto__ key anywhere, with its path, instead of dropping it", () => {
    const parsed = (text: string) => JSON.parse(text) as Record<string, unknown>;
    const costs = parsed('{"tokens": 0, "wall_clock_s": 0, "__proto__": -5}');
    expect(problems(validateTrace(base((t) => (t.costs = costs))))).toEqual([
      { path: "$.costs.__proto__", message: 'a key named "__proto__" cannot be stored (JavaScript takes it for the object\'s prototype): rename it' },
    ]);
    const event = parsed('{"id": "a", "t": 0, "type": "message", "agent": "A", "__proto__": {"x": 1}}');
    expect(problems(validateTrace(base((t) => (t.events[0] = event)))).map((p) => p.path)).toEqual(["$.events[0].__proto__"]);
    expect(problems(validateTrace(base((t) => (t.metadata = parsed('{"a": {"__proto__": 1}}'))))).map((p) => p.path)).toEqual(["$.metadata.a.__proto__"]);
  });
});
