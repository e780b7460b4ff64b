import { KEY_HELP } from "@/lib/annotate/keymap";

export function LabelHelp() {
  return (
    <dl className="grid max-w-xl grid-cols-[8rem_1fr] gap-x-4 gap-y-1 rounded border border-slate-200 bg-white p-3 text-sm" data-testid="key-help">
      {KEY_HELP.map(([keys, what]) => (
        <div key={keys} className="contents">
          <dt className="font-mono font-semibold">{keys}</dt>
          <dd>{what}</dd>
        </div>
      ))}
    </dl>
  );
}
