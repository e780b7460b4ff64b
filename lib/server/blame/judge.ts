import "server-only";
import { allAtOncePrompt, decisiveStepPrompt, judgeMethodName, onTrackPrompt, parseDecisive, parseOnTrack, parseStep, type JudgeMode } from "@/lib/blame/judge";
import { isHuman } from "@/lib/blame/priors";
import { contextOf } from "@/lib/blame/input";
import { answerQuestion, nextQuestion, orderedEventIds, startGuided, type BlameInput } from "@/lib/blame";
import type { AttributionOutcome } from "@/lib/api/contracts/aggregates";
import { promptHash, type ChatMessage } from "@/lib/judges/prompt";
import { prisma } from "../db/client";
import { chat, type RetryPolicy } from "../judges/endpoint";
import { decryptSecret } from "../judges/secret";
import { blameInputOf } from "./labelled";

/**
 * A judge attributing failures (lib/blame/judge.ts): one request per trace
 * with the whole timeline (`all_at_once`), or the guided bisection with the
 * judge answering each question (`binary_search`), or one step more at a
 * time until the judge calls the newest step decisive (`step_by_step`, at
 * most MAX_STEP_QUESTIONS questions; people's steps are not asked about). Each answer is stored in
 * judge_attributions with the model, the prompt's hash, tokens and time; a
 * reply that does not parse is stored as a failure with its text.
 */
type JudgeRow = NonNullable<Awaited<ReturnType<ReturnType<typeof prisma>["judge"]["findUnique"]>>>;

const MAX_TOKENS = 300;
/** Step-by-step mode asks about at most this many steps of a run. */
export const MAX_STEP_QUESTIONS = 200;

export async function attributeTraces(judge: JudgeRow, traces: readonly { id: number; traceId: string; groupId: string | null }[], mode: JudgeMode, retry?: RetryPolicy): Promise<AttributionOutcome[]> {
  const out: AttributionOutcome[] = [];
  const queue = [...traces];
  // a few traces at a time: the endpoint's own concurrency limit still applies to every call
  await Promise.all(Array.from({ length: Math.min(4, queue.length) }, async () => {
    for (let t = queue.shift(); t; t = queue.shift()) out.push(await attributeOne(judge, t, mode, retry));
  }));
  return out.sort((a, b) => (a.trace_id < b.trace_id ? -1 : 1));
}

async function ask(judge: JudgeRow, messages: ChatMessage[], retry?: RetryPolicy) {
  return chat({ baseUrl: judge.baseUrl, apiKey: judge.apiKeyCipher ? decryptSecret(judge.apiKeyCipher) : null, model: judge.model, messages, temperature: judge.temperature, maxTokens: Math.max(judge.maxTokens, MAX_TOKENS), responseFormat: null }, retry);
}

async function attributeOne(judge: JudgeRow, t: { id: number; traceId: string; groupId: string | null }, mode: JudgeMode, retry?: RetryPolicy): Promise<AttributionOutcome> {
  const input = await blameInputOf(t.id, t.groupId);
  const ids = orderedEventIds(input);
  const started = performance.now();
  let tokensIn = 0;
  let tokensOut = 0;
  let raw: string | null = null;
  let result: { step: number; reason: string } | { error: string };
  const questions: { k: number; event_id: string; on_track: boolean; reason: string }[] = [];
  const stepQuestions: { k: number; event_id: string; decisive: boolean; reason: string }[] = [];
  const system = mode === "all_at_once" ? allAtOncePrompt(input) : mode === "binary_search" ? onTrackPrompt(input, 0) : decisiveStepPrompt(input, 0);
  const hash = promptHash(system[0]!.content, judge.model, judge.temperature, Math.max(judge.maxTokens, MAX_TOKENS));
  try {
    if (mode === "all_at_once") {
      const reply = await ask(judge, allAtOncePrompt(input), retry);
      tokensIn += reply.tokensIn ?? 0;
      tokensOut += reply.tokensOut ?? 0;
      raw = reply.text;
      const parsed = parseStep(reply.text, ids.length);
      result = parsed.ok ? { step: parsed.value, reason: parsed.reason } : { error: parsed.error };
    } else if (mode === "step_by_step") {
      result = await stepByStep(judge, input, stepQuestions, retry, (r) => {
        tokensIn += r.tokensIn ?? 0;
        tokensOut += r.tokensOut ?? 0;
        raw = r.text;
      });
    } else {
      result = await bisect(judge, input, ids, questions, retry, (r) => {
        tokensIn += r.tokensIn ?? 0;
        tokensOut += r.tokensOut ?? 0;
        raw = r.text;
      });
    }
  } catch (error) {
    result = { error: `the endpoint failed: ${(error as Error).message}` };
  }
  const named = "step" in result ? result : null;
  const event = named ? contextEvent(input, named.step) : null;
  const row = {
    eventId: event?.id ?? null, agent: event?.agent ?? null, reason: named?.reason ?? null, questions: mode === "step_by_step" ? stepQuestions : questions, raw: raw === null ? null : (raw).slice(0, 20_000),
    error: "error" in result ? result.error : null, model: judge.model, promptHash: hash, tokensIn, tokensOut, latencyMs: Math.round(performance.now() - started), createdAt: new Date(),
  };
  await prisma().judgeAttribution.upsert({ where: { judgeId_traceKey_mode: { judgeId: judge.id, traceKey: t.traceId, mode } }, create: { judgeId: judge.id, traceKey: t.traceId, mode, ...row }, update: row });
  return { trace_id: t.traceId, method: judgeMethodName(judge.name, mode), event_id: row.eventId, agent: row.agent, reason: row.reason, questions: row.questions.length, error: row.error };
}

function contextEvent(input: BlameInput, step: number) {
  const id = orderedEventIds(input)[step]!;
  return input.trace.events.find((e) => e.id === id)!;
}

/** The guided bisection with the judge as the one who answers (no prior: the judge is what is scored). */
async function bisect(judge: JudgeRow, input: BlameInput, ids: string[], questions: { k: number; event_id: string; on_track: boolean; reason: string }[], retry: RetryPolicy | undefined, seen: (r: { tokensIn: number | null; tokensOut: number | null; text: string }) => void): Promise<{ step: number; reason: string } | { error: string }> {
  let state = startGuided(ids, null);
  for (;;) {
    const step = nextQuestion(state);
    if (step.kind === "done") return { step: step.decisive_index, reason: `found by bisection in ${step.answers.length} question(s)${step.contradictions.length > 0 ? `, ${step.contradictions.length} contradictory answer(s)` : ""}` };
    const reply = await ask(judge, onTrackPrompt(input, step.k), retry);
    seen(reply);
    const parsed = parseOnTrack(reply.text);
    if (!parsed.ok) return { error: `question about step ${step.k}: ${parsed.error}` };
    questions.push({ k: step.k, event_id: step.event_id, on_track: parsed.value, reason: parsed.reason });
    try {
      state = answerQuestion(state, step.k, parsed.value, step.purpose);
    } catch (error) {
      return { error: (error as Error).message };
    }
  }
}

/** Step by step: the run up to step k, "is step k the decisive error?", k = 0, 1, ... over the non-human steps; the first yes is the answer. */
async function stepByStep(judge: JudgeRow, input: BlameInput, questions: { k: number; event_id: string; decisive: boolean; reason: string }[], retry: RetryPolicy | undefined, seen: (r: { tokensIn: number | null; tokensOut: number | null; text: string }) => void): Promise<{ step: number; reason: string } | { error: string }> {
  const { ordered } = contextOf(input);
  for (let k = 0; k < ordered.length; k++) {
    if (isHuman(ordered[k]!)) continue;
    if (questions.length >= MAX_STEP_QUESTIONS) return { error: `no step called decisive in the first ${MAX_STEP_QUESTIONS} questions` };
    const reply = await ask(judge, decisiveStepPrompt(input, k), retry);
    seen(reply);
    const parsed = parseDecisive(reply.text);
    if (!parsed.ok) return { error: `question about step ${k}: ${parsed.error}` };
    questions.push({ k, event_id: ordered[k]!.id, decisive: parsed.value, reason: parsed.reason });
    if (parsed.value) return { step: k, reason: parsed.reason };
  }
  return { error: "the judge called no step decisive" };
}
