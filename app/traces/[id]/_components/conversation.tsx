import Link from "next/link";
import { Highlighted } from "@/components/search/highlighted";
import { formatDuration, formatValue, type Clock } from "@/lib/format";
import type { ConversationPage } from "@/lib/server/queries/conversation";
import type { ApiEvent } from "@/lib/server/queries/serialize";

interface Props {
  traceId: string;
  page: ConversationPage;
  clock: Clock;
  /** search terms to mark (from the list's content search) */
  terms: readonly string[];
  /** seq to point at (a search hit) */
  target?: number;
  /** the page's own URL parameters, for the paging links */
  values: Record<string, string>;
}

/** What kind of speech an event is, in words a reader of a chat log expects. */
const VERBS: Record<string, string> = {
  orchestrator_decision: "decides",
  spawn: "spawns",
  despawn: "ends",
  message: "says",
  tool_call: "calls",
  tool_result: "gets back from",
  return: "returns",
  aggregate: "aggregates",
  human_intervention: "intervenes",
  safety_event: "flags",
};

/**
 * The run read as a conversation: who said what to whom, tool arguments and
 * results, returns and the final answer, in event order, a page at a time.
 * Content is untrusted LLM output and is drawn as text only.
 */
export function Conversation({ traceId, page, clock, terms, target, values }: Props) {
  const base = `/traces/${encodeURIComponent(traceId)}`;
  const link = (from: number) => {
    const p = new URLSearchParams(values);
    p.delete("at");
    p.set("conv", String(from));
    return `${base}?${p.toString()}#conversation`;
  };
  const last = page.from + page.events.length;
  return (
    <section id="conversation" aria-label="Conversation">
      <h2 className="mb-2 text-lg font-semibold">
        Conversation{" "}
        <span className="text-sm font-normal text-slate-600" data-testid="conversation-range">
          {page.total > 0 ? `events ${page.from + 1}–${last} of ${page.total.toLocaleString("en")}` : "no events"}
        </span>
      </h2>
      <ol className="space-y-2" data-testid="conversation">
        {page.events.map((e) => (
          <Entry key={e.seq} e={e} base={base} clock={clock} terms={terms} final={e.seq === page.terminal_seq} target={e.seq === target} />
        ))}
      </ol>
      <nav className="mt-2 flex gap-4 text-sm" aria-label="Conversation pages">
        {page.from > 0 && <Link href={link(Math.max(0, page.from - page.limit))} className="text-blue-700 hover:underline">Earlier events</Link>}
        {last < page.total && <Link href={link(last)} className="text-blue-700 hover:underline" data-testid="conversation-next">Later events</Link>}
      </nav>
    </section>
  );
}

function Entry({ e, base, clock, terms, final, target }: { e: ApiEvent; base: string; clock: Clock; terms: readonly string[]; final: boolean; target: boolean }) {
  const whom = e.type === "tool_call" || e.type === "tool_result" ? e.tool ?? "a tool" : e.to ?? null;
  const who = e.from ?? e.agent;
  const error = e.status === "error";
  const label = e.type === "tool_call" ? "arguments" : e.type === "tool_result" ? "result" : null;
  return (
    <li
      id={`event-${e.id}`}
      className={`scroll-mt-20 rounded border bg-white p-2 text-sm ${target ? "border-blue-500 ring-2 ring-blue-300" : final ? "border-emerald-400" : error ? "border-rose-300" : "border-slate-200"}`}
      data-testid="conversation-entry"
      data-target={target || undefined}
      data-final={final || undefined}
      data-error={error || undefined}
    >
      <div className="flex flex-wrap items-baseline gap-x-2 text-xs text-slate-600">
        <span className="font-mono">{e.id}</span>
        <span>{clock === "steps" ? `step ${formatValue(e.t)}` : `t ${formatDuration(e.t)}`}</span>
        <span className="font-semibold text-slate-900">{who}</span>
        <span>{VERBS[e.type] ?? e.type}{e.decision ? ` ${e.decision}` : ""}{e.reason ? ` (${e.reason})` : ""}</span>
        {whom && <span className="font-semibold text-slate-900">{whom}</span>}
        {final && <span className="rounded bg-emerald-100 px-1.5 text-emerald-900">final answer</span>}
        {error && <span className="rounded bg-rose-100 px-1.5 text-rose-900">error</span>}
        {e.trusted === false && <span className="rounded bg-amber-100 px-1.5 text-amber-900">untrusted</span>}
        {e.tokens !== null && <span>{formatValue(e.tokens)} tokens</span>}
        <span className="ml-auto flex gap-3">
          <Link href={`${base}/graph?event=${encodeURIComponent(e.id)}`} className="text-blue-700 hover:underline">graph</Link>
          <Link href={`${base}/label?event=${encodeURIComponent(e.id)}`} className="text-blue-700 hover:underline">label</Link>
        </span>
      </div>
      {e.content ? (
        <div className="mt-1">
          {label && <span className="mr-1 text-xs uppercase tracking-wide text-slate-600">{label}</span>}
          <Content text={e.content} terms={terms} />
        </div>
      ) : (
        e.content_ref && <p className="mt-1 text-xs text-slate-600">content kept elsewhere: <span className="font-mono">{e.content_ref}</span></p>
      )}
    </li>
  );
}

const SHOWN = 2000;

/** Long content folds after SHOWN characters; the rest is one click away, never cut silently. */
function Content({ text, terms }: { text: string; terms: readonly string[] }) {
  const pre = "whitespace-pre-wrap break-words font-mono text-xs text-slate-900";
  if (text.length <= SHOWN) return <p className={pre}><Highlighted text={text} terms={terms} /></p>;
  const rest = text.slice(SHOWN).toLowerCase();
  return (
    <details open={terms.some((t) => rest.includes(t.toLowerCase()))}>
      <summary className="cursor-pointer">
        <span className={pre}><Highlighted text={text.slice(0, SHOWN)} terms={terms} />…</span>
        <span className="ml-1 text-xs text-blue-700">show all {text.length.toLocaleString("en")} characters</span>
      </summary>
      <p className={pre}><Highlighted text={text.slice(SHOWN)} terms={terms} /></p>
    </details>
  );
}
