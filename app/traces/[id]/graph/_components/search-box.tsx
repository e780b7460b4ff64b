"use client";
import { useState } from "react";
import { useGraphActions, useGraphStore } from "@/components/trace-graph/store/context";
import type { GraphState } from "@/components/trace-graph/store/state";

const selectResult = (s: GraphState) => s.searchResult;

/** Jump to an event by id; part of an id, label, agent or tool lists up to 12 matches, or says none matches. */
export function SearchBox() {
  const actions = useGraphActions();
  const result = useGraphStore(selectResult);
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  return (
    <form
      className="relative"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() === "") return;
        actions.search(text);
        setOpen(true);
      }}
    >
      <input
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="Event id, agent, tool…"
        aria-label="Jump to event"
        data-testid="event-search"
        className="w-52 rounded border border-slate-300 px-2 py-1 text-sm"
      />
      {open && result && result.exact === null ? (
        <ul className="absolute right-0 z-20 mt-1 max-h-72 w-80 overflow-auto rounded border border-slate-300 bg-white text-sm shadow-lg" data-testid="search-results">
          {result.matches.length === 0 ? <li className="px-2 py-1 text-slate-500">No event matches “{text}”.</li> : null}
          {result.matches.map((m) => (
            <li key={m.seq}>
              <button type="button" className="w-full truncate px-2 py-1 text-left hover:bg-slate-100" onClick={() => { actions.select(m.seq, { id: m.id, focus: true }); setOpen(false); }}>
                <span className="font-mono text-xs">{m.id}</span> <span className="text-slate-600">{m.label}</span>
              </button>
            </li>
          ))}
          {result.matches.length === 12 ? <li className="px-2 py-1 text-xs text-slate-500">First 12 matches shown; type more of the id.</li> : null}
        </ul>
      ) : null}
    </form>
  );
}
