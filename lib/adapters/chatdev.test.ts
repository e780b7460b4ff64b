import { readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { chatDevTime, readChatDevLog } from "./chatdev-log";
import { collect, data, eventTypes, expectValid } from "./fixtures";
import type { AdaptedTrace } from "./types";

const RUNS = readdirSync(data("chatdev_warehouse")).sort();
const traces = new Map<string, AdaptedTrace>();
const run = (prefix: string) => [...traces].find(([name]) => name.startsWith(prefix))![1];

beforeAll(async () => {
  for (const name of RUNS) {
    const [trace, ...more] = await collect("chatdev", data(`chatdev_warehouse/${name}`));
    expect(more).toEqual([]);
    traces.set(name, trace!);
  }
});

describe("ChatDev adapter on the 12 WareHouse runs", () => {
  it("makes one valid trace per run folder, without warnings", () => {
    expect(traces.size).toBe(12);
    for (const t of traces.values()) expect(expectValid(t)).toEqual([]);
    // the log prints messages, not the requests each agent's model was sent: no model calls (docs/adapters.md)
    for (const t of traces.values()) expect(t.calls).toBeUndefined();
  });

  it("reads dates as year-day-month", () => {
    expect(chatDevTime(2023, 25, 8, 9, 35, 59)).toBe(Date.UTC(2023, 7, 25, 9, 35, 59) / 1000);
    // Maze's log starts "[2023-06-10 15:43:05": 6 October (its folder says 20231006154305), not 10 June
    expect(run("Maze").metadata!.started_at).toBe("2023-10-06T15:43:05");
    const [first] = readChatDevLog("[2023-06-10 15:43:05 INFO] **[Preprocessing]**\n\nbody");
    expect(new Date(first!.time * 1000).toISOString()).toBe("2023-10-06T15:43:05.000Z");
  });

  it("starts every run within 2 s of the timestamp in its folder or log name", () => {
    for (const [name, t] of traces) {
      const source = t.metadata!.source as { log: string };
      const stamp = /(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(`${name} ${source.log}`)!;
      const [, y, mo, d, h, mi, s] = stamp.map(Number);
      const started = Date.parse(`${String(t.metadata!.started_at)}Z`) / 1000;
      expect(Math.abs(started - Date.UTC(y!, mo! - 1, d, h, mi, s) / 1000), name).toBeLessThanOrEqual(2);
    }
  });

  it("turns every chat start and turn into a message (counted with grep in the logs)", () => {
    const messages = RUNS.map((name) => eventTypes(traces.get(name)!).message);
    expect(messages).toEqual([30, 24, 31, 32, 28, 20, 24, 26, 25, 30, 26, 10]);
  });

  it("maps a 2023-08 run: phases, the pair spawned per phase, conclusions, the test report, the stop", () => {
    const t = run("ArtCanvas");
    // 12 phases (+ the run's start and its stop), 2 roles each, 12 Seminar Conclusions, 1 test report
    expect(eventTypes(t)).toEqual({ orchestrator_decision: 14, spawn: 24, message: 30, aggregate: 12, tool_result: 1 });
    expect(t.events.filter((e) => e.decision === "spawn").map((e) => e.phase).slice(0, 3)).toEqual(["DemandAnalysis", "LanguageChoose", "Coding"]);
    const coding = t.events.filter((e) => e.type === "spawn" && e.phase === "Coding").map((e) => e.to);
    expect(coding.sort()).toEqual(["Chief Technology Officer", "Programmer"]);
    expect(t.events.at(-1)).toMatchObject({ type: "orchestrator_decision", decision: "stop" });
    expect(t.topology).toBe("mixed");
    expect(t.metadata!.topology_detail).toBe("chain");
  });

  it("times each turn by its LLM call and charges the call's tokens (summing to the run's reported total)", () => {
    for (const t of traces.values()) {
      const reported = (t.metadata!.post_info as Record<string, number> | undefined)?.num_total_tokens;
      if (reported !== undefined && reported > 0) expect(t.costs.tokens, t.trace_id).toBe(reported);
    }
    const turn = run("Gomoku_Human").events.find((e) => e.type === "message" && e.tokens !== undefined)!;
    expect(turn.t_end! - turn.t).toBeGreaterThan(0);
    expect(run("BMI").costs).toMatchObject({ tokens: 12621, cost_usd: 0.040864 });
  });

  it("maps CodeReviewHuman feedback to human_intervention", () => {
    const humans = run("Gomoku_Human").events.filter((e) => e.type === "human_intervention");
    expect(humans).toHaveLength(3);
    expect(humans[0]!.content).toContain("Please add a restart button.");
    expect(humans[1]!.content).toContain("Please add a current status bar showing whose turn it is.");
    // the human's time runs from the prompt (13:54:18) to the answer (13:57:31)
    expect(humans[1]!.t_end! - humans[1]!.t).toBe(193);
    const next = run("Gomoku_Human").events.find((e) => e.t >= humans[1]!.t_end! && e.type === "orchestrator_decision")!;
    expect(next.phase).toBe("CodeReviewHuman");
  });

  it("marks failed test runs as errors", () => {
    // QRCodeGenerator: twice "No module named 'qrcode'", then the fixed run passes
    const reports = run("QRCode").events.filter((e) => e.type === "tool_result");
    expect(reports.map((e) => e.status ?? "ok")).toEqual(["error", "error", "ok"]);
    expect(run("TicTacToe").events.filter((e) => e.type === "tool_result").map((e) => e.status ?? "ok")).toEqual(["ok"]);
  });

  it("reads the 2023-06 and 2023-07 log formats", () => {
    expect(eventTypes(run("FlappyBird"))).toEqual({ orchestrator_decision: 17, spawn: 30, message: 32 });
    expect(run("FlappyBird").events.find((e) => e.decision === "spawn")!.phase).toBe("DEMAND_ANALYSIS");
    const oldest = run("Gomoku_THUNLP");
    expect(oldest.events.filter((e) => e.type === "message")).toHaveLength(20);
    expect(oldest.costs.tokens).toBe(0);
  });

  it("keeps provenance and the run's meta", () => {
    const t = run("car_THUNLPDemo_2024");
    expect(t.metadata!.source).toMatchObject({
      dataset: "ChatDev WareHouse",
      file: "chatdev_warehouse/car_THUNLPDemo_2024",
      repo: "OpenBMB/ChatDev",
      commit: "31fd994416a251ecdeb1f0a73c329271743bfb56",
      log: "Demo_DefaultOrganization_20241221131803.log",
    });
    expect(t.metadata!.task).toBe("仔细开发一个赛车小游戏");
    // the id is the log's own name, so that the lone log (an upload) gets the same one
    expect(t.trace_id).toBe("chatdev-demo-defaultorganization-20241221131803");
  });

  it("gives a run one trace id and one task whether its folder or its lone .log is read", async () => {
    for (const [name, fromFolder] of traces) {
      const log = readdirSync(data(`chatdev_warehouse/${name}`)).find((f) => f.endsWith(".log"))!;
      const [fromLog] = await collect("chatdev", { path: log, content: readFileSync(data(`chatdev_warehouse/${name}/${log}`), "utf8") });
      expect([fromLog!.trace_id, fromLog!.task_id, fromLog!.metadata!.task], name).toEqual([fromFolder.trace_id, fromFolder.task_id, fromFolder.metadata!.task]);
    }
    expect(run("Gomoku_THUNLP").trace_id).toBe("chatdev-20230625201030");
    // a task quoted only in the chat prompts (meta.txt says it too)
    expect(run("car_THUNLPDemo_2024").metadata!.task).toBe("仔细开发一个赛车小游戏");
  });
});
