import type { Metadata } from "next";
import { AgendaEditor } from "@/components/meeting/agenda-editor";
import { Presenter } from "@/components/meeting/presenter";
import { agendaFromParams, slideIndex } from "@/lib/meeting/agenda";

export const dynamic = "force-dynamic";

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/**
 * Presentation mode. `/present?agenda=<path>&agenda=<path>&slide=<n>` shows
 * that agenda (a shared link replays the meeting); `/present` alone edits
 * the agenda kept in this browser.
 */
export const metadata: Metadata = { title: "Present" };

export default async function PresentPage({ searchParams }: Props) {
  const query = await searchParams;
  const raw = query.agenda;
  const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const items = agendaFromParams(list(raw), list(query.title));
  if (items.length > 0) {
    const slide = typeof query.slide === "string" ? query.slide : undefined;
    return <Presenter items={items} start={slideIndex(slide, items.length)} />;
  }
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Meeting agenda</h1>
      <p className="max-w-3xl text-sm text-slate-600">
        Presentation mode shows these views one at a time, full screen, in large type. Keys: → / PageDown next, ← / PageUp previous,
        F full screen, T light / dark theme, Escape leaves.
      </p>
      <AgendaEditor />
    </div>
  );
}
