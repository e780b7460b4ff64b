"use client";

import { useEffect } from "react";
import { keyAction } from "@/lib/annotate/keymap";
import { LabelHelp } from "./label-help";
import { LabelTable } from "./label-table";
import { labelKey, selectCurrentEvent, selectCurrentFamily, useLabeling, useLabelingStore } from "./store";
import { TraceVerdict } from "./trace-verdict";
import { useLabelSaver } from "./use-label-saver";

/** Keyboard-driven reward labeling of one trace (the map is in lib/annotate/keymap.ts). */
export function LabelWorkbench({ preset }: { preset: string }) {
  const store = useLabelingStore();
  const { save, retryFailed } = useLabelSaver(preset);
  const help = useLabeling((s) => s.help);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
      const action = keyAction(e);
      if (!action) return;
      e.preventDefault();
      const s = store.getState();
      const event = selectCurrentEvent(s);
      const family = selectCurrentFamily(s);
      switch (action.kind) {
        case "value":
          s.setDraft(action.value);
          break;
        case "task":
          void save({ event_id: null, family: "task_success", value: action.value });
          break;
        case "move":
          s.move(action.by);
          break;
        case "family":
          s.moveFamily(action.by);
          break;
        case "save":
          if (event && family && s.draft !== null) {
            void save({ event_id: event.id, family, value: s.draft });
            s.move(1);
          }
          break;
        case "retry":
          void retryFailed();
          break;
        case "help":
          s.toggleHelp();
          break;
        case "skip":
          break;
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [store, save, retryFailed]);

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-4 text-sm">
        <TraceVerdict label={useLabeling((s) => s.labels[labelKey(null, "task_success")])} />
        <FailedCount onRetry={() => void retryFailed()} />
        <button type="button" onClick={() => store.getState().toggleHelp()} className="rounded border border-slate-300 px-2 py-0.5 text-slate-600 hover:bg-slate-100">
          ? keys
        </button>
      </div>
      {help && <LabelHelp />}
      <LabelTable />
    </div>
  );
}

function FailedCount({ onRetry }: { onRetry: () => void }) {
  const failed = useLabeling((s) => Object.values(s.labels).filter((l) => l.status === "failed").length);
  if (failed === 0) return null;
  return (
    <span className="rounded bg-rose-100 px-2 py-0.5 text-rose-800" data-testid="failed-labels">
      {failed} label(s) not saved —{" "}
      <button type="button" className="underline" onClick={onRetry}>retry (r)</button>
    </span>
  );
}
