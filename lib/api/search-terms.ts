/**
 * The content search of the trace list (`text=`): words and "quoted
 * phrases"; a trace matches when every term occurs (case-insensitively, as a
 * substring) in some event's content, agent or tool, or in its metadata.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  const pattern = /"([^"]*)"|(\S+)/g;
  for (const m of text.matchAll(pattern)) {
    const term = (m[1] ?? m[2] ?? "").trim();
    if (term && !terms.some((t) => t.toLowerCase() === term.toLowerCase())) terms.push(term);
  }
  return terms.slice(0, 8);
}

/** A LIKE pattern matching `term` anywhere, with LIKE's own characters taken literally. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Splits `text` into the parts to draw plain and the parts to mark, case-insensitively. */
export function highlightParts(text: string, terms: readonly string[]): { text: string; match: boolean }[] {
  // by slices of the original text: lower-casing can change a string's length (İ)
  const wanted = [...new Set(terms.filter((t) => t.length > 0))].sort((a, b) => b.length - a.length);
  if (wanted.length === 0 || text.length === 0) return text ? [{ text, match: false }] : [];
  const parts: { text: string; match: boolean }[] = [];
  let at = 0;
  let plainFrom = 0;
  while (at < text.length) {
    // the longest term starting here, so that "time" inside "timeout" never cuts a longer match
    const hit = wanted.find((t) => text.slice(at, at + t.length).toLowerCase() === t.toLowerCase());
    if (hit === undefined) {
      at++;
      continue;
    }
    if (at > plainFrom) parts.push({ text: text.slice(plainFrom, at), match: false });
    parts.push({ text: text.slice(at, at + hit.length), match: true });
    at += hit.length;
    plainFrom = at;
  }
  if (plainFrom < text.length) parts.push({ text: text.slice(plainFrom), match: false });
  return parts;
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * A PostgreSQL regular expression (for `~*`) matching `term` as a whole word
 * or phrase: not inside a longer word ("Pine" in "spinel", "901" in
 * "1901.09759"). Regex characters are taken literally.
 */
export function wholeWordRegex(term: string): string {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return `(^|[^[:alnum:]_])${escaped}($|[^[:alnum:]_])`;
}

/** Whether some occurrence of `term` in `text` (case-insensitive) stands as a whole word: no letter, digit or _ right before or after it. */
export function hasWholeWord(text: string, term: string): boolean {
  if (term === "") return false;
  const lower = text.toLowerCase();
  const wanted = term.toLowerCase();
  for (let at = lower.indexOf(wanted); at >= 0; at = lower.indexOf(wanted, at + 1)) {
    const before = at > 0 ? lower[at - 1]! : "";
    const after = lower[at + wanted.length] ?? "";
    if (!(before && WORD.test(before)) && !(after && WORD.test(after))) return true;
  }
  return false;
}

/** Whether `ch` is a character PostgreSQL's [:alnum:] excludes in every locale: ASCII other than letters and digits. */
const isSeparator = (ch: string): boolean => ch.charCodeAt(0) < 0x80 && !/[A-Za-z0-9]/.test(ch);
/** Longest word the content index keeps whole (baton_words cuts longer ones to this length). */
const INDEXED_WORD = 200;

/**
 * A tsquery over `baton_words(content)` (migration content_words) that
 * every content containing `term` case-insensitively satisfies, or null
 * when the term has no word it can rely on. A run of ASCII letters and
 * digits that a separator (ASCII, not a letter or digit) precedes within the
 * term starts a word of any text that contains the term: it is that whole
 * word when a separator also follows it within the term, else (the term
 * ends, or a character that may be a letter in the database's locale
 * follows) the word's beginning, a prefix (`:*`). A run at the start of the
 * term may end a longer word and says nothing. Content too long to be split
 * carries 'long-content', accepted by every query. The words are lower-cased
 * by the database (`lower()`, as ILIKE compares), not here.
 */
export function wordPrefilter(term: string): string | null {
  const words: string[] = [];
  for (const m of term.matchAll(/[A-Za-z0-9]+/g)) {
    const before = term[m.index - 1];
    const after = term[m.index + m[0].length];
    if (before === undefined || !isSeparator(before)) continue;
    const whole = after !== undefined && isSeparator(after);
    words.push(whole && m[0].length <= INDEXED_WORD ? `'${m[0]}'` : `'${m[0].slice(0, INDEXED_WORD)}':*`);
  }
  if (words.length === 0) return null;
  return `(${[...new Set(words)].join(" & ")}) | 'long-content'`;
}
