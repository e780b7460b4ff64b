import type { ReactNode } from "react";

/** A small labelled form field (label above its control), shared by the filter forms. */
export function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
      {label}
      {children}
    </label>
  );
}
