/**
 * What an event's words say, as numbers: markers people read when they look
 * for the step that broke a run (errors, exit codes, apologies, hedges,
 * claims of success), plus hashed unigrams and bigrams for a model to weigh.
 * Content is untrusted text; it is only matched and hashed, never run.
 */

/** Regular markers: name -> pattern (case-insensitive). */
export const TEXT_MARKERS: Readonly<Record<string, RegExp>> = {
  code_block: /```/,
  error_word: /\b(?:error|exception|traceback|failed|failure)\b/i,
  exit_nonzero: /exit ?code:? ?[1-9]|execution failed/i,
  exit_zero: /exit ?code:? ?0\b|execution succeeded/i,
  apology: /\b(?:sorry|apolog)/i,
  hedge: /\b(?:i think|perhaps|maybe|might|likely|seems|assum|approximately|estimate|hypothetical)/i,
  inability: /\b(?:unable|cannot|can't|could not|couldn't|not able|no results|not found|did not return|didn't)/i,
  success_claim: /\b(?:successfully|confirmed|verified|correct(?:ly)?|accurate)\b/i,
  final_answer: /final answer|TERMINATE/i,
  plan: /\b(?:plan|step \d|next step|let's|let us)\b/i,
  question: /\?/,
  url: /https?:\/\//i,
  stalled: /stalled|replanning|re-plan/i,
  search: /\b(?:typed|search(?:ed)?|clicked|scrolled)\b/i,
  assumption_data: /\b(?:sample|example|placeholder|hypothetical|dummy|simulate)/i,
};

/** Buckets of the hashed n-grams. */
export const HASH_BUCKETS = 512;
/** Only the start of long contents is hashed: it says what the step does, and keeps the cost bounded. */
const HASHED_CHARS = 4000;

/** FNV-1a, 32-bit. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Distinct hashed buckets of the content's lower-case unigrams and bigrams. */
export function hashedNgrams(content: string): number[] {
  const words = content.slice(0, HASHED_CHARS).toLowerCase().match(/[a-z][a-z0-9_']*/g) ?? [];
  const buckets = new Set<number>();
  for (let i = 0; i < words.length; i++) {
    buckets.add(fnv1a(words[i]!) % HASH_BUCKETS);
    if (i > 0) buckets.add(fnv1a(`${words[i - 1]} ${words[i]}`) % HASH_BUCKETS);
  }
  return [...buckets].sort((a, b) => a - b);
}

/** 1/0 per marker, plus the length (log of characters) and the number of lines (log). */
export function textSignals(content: string): Record<string, number> {
  const out: Record<string, number> = { text_length: Math.log1p(content.length) / 10, text_lines: Math.log1p(content.split("\n").length) / 5 };
  for (const [name, pattern] of Object.entries(TEXT_MARKERS)) out[`text_${name}`] = pattern.test(content) ? 1 : 0;
  return out;
}
