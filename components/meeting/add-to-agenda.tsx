"use client";

import Link from "next/link";
import { addItem } from "@/lib/meeting/agenda";
import { saveAgenda, useAgenda } from "./agenda-storage";

/** Adds the view as it is now (its full URL: filters, trace, selection, method...) to the meeting agenda. */
export function AddToAgenda({ title }: { title: string }) {
  const agenda = useAgenda();
  const add = () => {
    const url = new URL(window.location.href);
    url.searchParams.delete("present");
    saveAgenda(addItem(agenda, { url: `${url.pathname}${url.search}`, title }));
  };
  return (
    <span className="hide-when-presenting inline-flex items-center gap-2 text-sm">
      <button type="button" onClick={add} data-testid="add-to-agenda" className="rounded border border-slate-300 bg-white px-2 py-0.5 text-slate-700 hover:bg-slate-100">
        Add to agenda
      </button>
      <Link href="/present" className="text-blue-700 hover:underline" data-testid="agenda-count">
        Agenda ({agenda.length})
      </Link>
    </span>
  );
}
