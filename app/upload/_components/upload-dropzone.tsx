"use client";

import Link from "next/link";
import { useCallback, useRef, useState } from "react";
import { ADAPTER_FORMATS, FORMAT_NAMES } from "@/lib/adapters/types";
import { uploadFile, type UploadFormat, type UploadOutcome } from "./upload-file";
import { counted } from "@/lib/format";

interface FileResult {
  key: string;
  name: string;
  outcome: UploadOutcome | "uploading";
}

/** Drag-and-drop (or pick) several files; each is posted to /api/traces and its result listed. */
export function UploadDropzone({ maxBytes }: { maxBytes: number }) {
  const [results, setResults] = useState<FileResult[]>([]);
  const [dragging, setDragging] = useState(false);
  const [upsert, setUpsert] = useState(false);
  const [format, setFormat] = useState<UploadFormat>("auto");
  const inputRef = useRef<HTMLInputElement>(null);

  const upload = useCallback(
    (files: File[]) => {
      for (const file of files) {
        const key = `${file.name}-${file.size}-${Date.now()}-${Math.random()}`;
        setResults((r) => [{ key, name: file.name, outcome: "uploading" }, ...r]);
        void uploadFile(file, upsert, format, maxBytes).then((outcome) => {
          setResults((r) => r.map((x) => (x.key === key ? { ...x, outcome } : x)));
        });
      }
    },
    [upsert, format, maxBytes],
  );

  return (
    <div className="space-y-4">
      <div
        data-testid="dropzone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          upload([...e.dataTransfer.files]);
        }}
        onClick={() => inputRef.current?.click()}
        className={`flex h-40 cursor-pointer flex-col items-center justify-center rounded border-2 border-dashed text-slate-600 ${dragging ? "border-blue-500 bg-blue-50" : "border-slate-300 bg-white"}`}
      >
        <p className="font-medium">Drop .json / .jsonl files (or a ChatDev .log) here</p>
        <p className="text-sm">or click to choose</p>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept=".json,.jsonl,.ndjson,.log,application/json,text/plain"
          className="hidden"
          data-testid="file-input"
          onChange={(e) => {
            upload([...(e.target.files ?? [])]);
            e.target.value = "";
          }}
        />
      </div>
      <label className="flex items-center gap-2 text-sm">
        Format
        <select value={format} onChange={(e) => setFormat(e.target.value as UploadFormat)} className="rounded border border-slate-300 px-1" data-testid="format-select">
          <option value="auto">detect from the content</option>
          {ADAPTER_FORMATS.map((f) => <option key={f} value={f}>{FORMAT_NAMES[f]}</option>)}
        </select>
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={upsert} onChange={(e) => setUpsert(e.target.checked)} />
        Replace traces whose trace_id already exists
      </label>
      <ul className="space-y-3" data-testid="upload-results">
        {results.map((r) => (
          <li key={r.key} className="rounded border border-slate-200 bg-white p-3 text-sm" data-testid="upload-result">
            <p className="font-medium">{r.name}</p>
            <Outcome outcome={r.outcome} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function Outcome({ outcome }: { outcome: FileResult["outcome"] }) {
  if (outcome === "uploading") return <p className="text-slate-500">Uploading…</p>;
  if (outcome.ok) {
    return (
      <ul className="mt-1 space-y-0.5 text-emerald-800" data-testid="upload-ok">
        {outcome.data.traces.map((t) => (
          <li key={t.trace_id}>
            ✓ <Link className="font-mono underline" href={`/traces/${encodeURIComponent(t.trace_id)}`}>{t.trace_id}</Link>: {t.events} events, {t.edges} edges
            {t.warnings.length > 0 && <span className="text-amber-700"> ({counted(t.warnings.length, "warning")})</span>}
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className="mt-1 text-rose-800" data-testid="upload-error">
      <p>✗ {outcome.message} — nothing from this file was stored.</p>
      {outcome.issues.length > 0 && (
        <ul className="mt-1 max-h-64 space-y-0.5 overflow-auto font-mono text-xs">
          {outcome.issues.map((d, i) => (
            <li key={i}>
              <span className="font-semibold">{d.path}</span>: {d.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
