"use client";

import { isTyping } from "@/components/typing";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { presentedUrl, type AgendaItem } from "@/lib/meeting/agenda";
import { ExportButtons } from "../export/export-buttons";
import { switchTheme } from "./theme";
import { ThemeToggle } from "./theme-toggle";
import { PresenterProvider, useGoToSlide, useSlideIndex, useStepSlide } from "./presenter-store";

/**
 * Presentation mode: the agenda's views one at a time, full window (full
 * screen on request), each shown with `present=1` (no site chrome, larger
 * type, higher contrast). Keys, also while the view has the focus:
 * Right / PageDown / Space next, Left / PageUp previous, Home / End,
 * F full screen, T light / dark theme (the frame follows), Escape leaves (to the view on screen; in full screen the
 * first Escape only leaves full screen, as browsers insist).
 */
export function Presenter({ items, start }: { items: AgendaItem[]; start: number }) {
  return (
    <PresenterProvider index={start} count={items.length}>
      <Slides items={items} />
    </PresenterProvider>
  );
}

const SLIDE_SELECTOR = "svg[data-export-root], [data-picture-source]";

function Slides({ items }: { items: AgendaItem[] }) {
  const index = useSlideIndex();
  const step = useStepSlide();
  const go = useGoToSlide();
  const router = useRouter();
  const rootRef = useRef<HTMLDivElement>(null);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const item = items[index]!;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      if (isTyping(event)) return;
      const target = event.target as HTMLElement | null;
      const inFrame = target?.ownerDocument !== document;
      // a view that used an arrow key itself (the graph steps through events) keeps it
      if (inFrame && event.defaultPrevented) return;
      const key = event.key;
      if (key === "ArrowRight" || key === "PageDown" || key === " ") step(1);
      else if (key === "ArrowLeft" || key === "PageUp") step(-1);
      else if (key === "Home") go(0);
      else if (key === "End") go(items.length - 1);
      else if (key === "f" || key === "F") void toggleFullscreen(rootRef.current);
      else if (key === "t" || key === "T") switchTheme();
      else if (key === "Escape") router.push(item.url);
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    const frame = frameRef.current;
    const attach = () => frame?.contentWindow?.addEventListener("keydown", onKey);
    frame?.addEventListener("load", attach);
    attach();
    return () => {
      window.removeEventListener("keydown", onKey);
      frame?.removeEventListener("load", attach);
      frame?.contentWindow?.removeEventListener("keydown", onKey);
    };
  }, [step, go, router, item.url, items.length]);

  const button = "rounded border border-slate-500 px-3 py-1 text-base font-medium hover:bg-slate-800 disabled:opacity-40";
  return (
    <div ref={rootRef} className="fixed inset-0 z-50 flex flex-col bg-slate-950 text-slate-50" data-testid="presenter" data-slide={index + 1}>
      <div className="flex items-center gap-3 px-4 py-2 text-lg">
        <span className="font-mono" data-testid="slide-number">{index + 1} / {items.length}</span>
        <span className="min-w-0 flex-1 truncate font-semibold" data-testid="slide-title" title={item.title}>{item.title}</span>
        <button type="button" className={button} onClick={() => step(-1)} disabled={index === 0} aria-label="Previous view">←</button>
        <button type="button" className={button} onClick={() => step(1)} disabled={index === items.length - 1} aria-label="Next view">→</button>
        <button type="button" className={button} onClick={() => void toggleFullscreen(rootRef.current)} title="F">Full screen</button>
        <span className="rounded bg-white px-1 py-0.5">
          <ExportButtons selector={SLIDE_SELECTOR} title={item.title} doc={() => frameRef.current?.contentDocument ?? document} />
        </span>
        <ThemeToggle className={button} />
        <button type="button" className={button} onClick={() => router.push(item.url)} data-testid="leave-presentation" title="Escape">Leave</button>
      </div>
      <iframe ref={frameRef} key={item.url} src={presentedUrl(item.url)} title={item.title} className="w-full flex-1 border-0 bg-white" data-testid="present-frame" />
    </div>
  );
}

async function toggleFullscreen(element: HTMLElement | null): Promise<void> {
  try {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await element?.requestFullscreen();
  } catch {
    // full screen refused (no user gesture, or not allowed): the window-filling view remains
  }
}
