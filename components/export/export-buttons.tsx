"use client";

import { useState } from "react";
import { exportElement } from "./serialize";

/**
 * "SVG" and "PNG" buttons for whatever `selector` finds: a chart's <svg>
 * (legend and title are drawn inside it, so they export with it) or any
 * other element, such as the graph's `.react-flow` viewport.
 */
export function ExportButtons({ selector, title, doc }: { selector: string; title: string; doc?: () => Document }) {
  const [error, setError] = useState<string | null>(null);
  const run = (format: "svg" | "png") => {
    setError(null);
    exportElement(doc?.() ?? document, selector, format, title).catch((e: unknown) => setError((e as Error).message));
  };
  const button = "rounded border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-100";
  return (
    <span className="inline-flex items-center gap-1" aria-label={`Export ${title}`}>
      <button type="button" className={button} onClick={() => run("svg")} data-testid="export-svg" title="Download as SVG (vector, with title and legend)">
        SVG
      </button>
      <button type="button" className={button} onClick={() => run("png")} data-testid="export-png" title="Download as PNG (2x, with title and legend)">
        PNG
      </button>
      {error && <span role="alert" className="text-xs text-rose-700">{error}</span>}
    </span>
  );
}
