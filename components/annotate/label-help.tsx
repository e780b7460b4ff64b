import { keyHelp, type KeyPlace } from "@/lib/annotate/keymap";

/** The keyboard cheatsheet of the label page or a queue (? opens it, Esc or the button closes it). */
export function LabelHelp({ onClose, place = "queue" }: { onClose?: () => void; place?: KeyPlace }) {
  return (
    <div className="max-w-xl rounded border border-slate-200 bg-white p-3 text-sm shadow-lg" data-testid="key-help">
      <div className="mb-2 flex items-center justify-between">
        <h2 className="font-semibold">Keys</h2>
        {onClose && <button type="button" onClick={onClose} className="rounded border border-slate-300 px-2 text-xs hover:bg-slate-100">close (Esc)</button>}
      </div>
      <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1">
        {keyHelp(place).map(([keys, what]) => (
          <div key={keys} className="contents">
            <dt className="font-mono font-semibold">{keys}</dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-500">The mouse works too: click a row to select it, click an option to choose it.</p>
    </div>
  );
}
