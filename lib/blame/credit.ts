/**
 * `neg_credit_<m>`: the blame of the most negative credit of credit method m
 * (SPEC.md section 10): events by ascending C(v) under the uniform preset,
 * agents by ascending sum of C(v) over their events. grpo and gigpo need a
 * group of at least two rollouts.
 */
import { GroupTooSmallError, creditColumns, type CreditMethod } from "../credit/index";
import { contextOf } from "./input";
import { toRanking } from "./rank";
import { BlameNotApplicableError, type BlameInput, type BlameRanking } from "./types";

export const needsGroup = (m: CreditMethod) => m === "grpo" || m === "gigpo";

/** C(v) of every event, in event order. */
export function creditInEventOrder(input: BlameInput, method: CreditMethod): Float64Array {
  const { prepared, positions } = contextOf(input);
  const total = creditColumns(prepared, { method, group: input.group.map((trace) => ({ trace })) }).total;
  return Float64Array.from(positions, (i) => total[i]!);
}

export function rankByNegativeCredit(method: CreditMethod, input: BlameInput): BlameRanking {
  const name = `neg_credit_${method}`;
  if (needsGroup(method) && input.group.length === 0) throw new BlameNotApplicableError(name, "the trace has no group of rollouts");
  let credit: Float64Array;
  try {
    credit = creditInEventOrder(input, method);
  } catch (e) {
    if (e instanceof GroupTooSmallError) throw new BlameNotApplicableError(name, e.message);
    throw e;
  }
  const { ordered } = contextOf(input);
  const scored = ordered.map((event, k) => ({ event, score: -credit[k]!, signals: { [`credit_${method}`]: credit[k]! } }));
  return toRanking(name, scored, "sum");
}
