"use client";

import { useState } from "react";
import { readableContent } from "@/lib/annotate/unit";

const COLLAPSED_CHARS = 1_200;
const COLLAPSED_LINES = 16;

/**
 * Untrusted content as text (never HTML): JSON pretty-printed, long text
 * collapsed to its start with a button to show it all. `length` is the full
 * length when the server cut the text.
 */
export function ContentText({ content, length, testId }: { content: string | null; length?: number | null; testId?: string }) {
  const [open, setOpen] = useState(false);
  if (content === null) return <p className="text-sm italic text-slate-500" data-testid={testId}>no content</p>;
  const { text, json } = readableContent(content);
  const lines = text.split("\n");
  const long = text.length > COLLAPSED_CHARS || lines.length > COLLAPSED_LINES;
  const shown = !long || open ? text : lines.slice(0, COLLAPSED_LINES).join("\n").slice(0, COLLAPSED_CHARS);
  const cut = length != null && length > content.length;
  return (
    <div>
      <pre className="max-h-[28rem] overflow-auto whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs text-slate-900" data-testid={testId} data-json={json}>
        {shown}
        {long && !open ? "…" : ""}
      </pre>
      {(long || cut) && (
        <p className="mt-0.5 flex gap-3 text-xs text-slate-500">
          {long && (
            <button type="button" className="text-blue-700 underline" onClick={() => setOpen(!open)} data-testid={testId && `${testId}-toggle`}>
              {open ? "collapse" : `show all (${text.length.toLocaleString("en")} characters)`}
            </button>
          )}
          {cut && <span>first {content.length.toLocaleString("en")} of {length.toLocaleString("en")} characters</span>}
        </p>
      )}
    </div>
  );
}
