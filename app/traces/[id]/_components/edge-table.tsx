const SHOWN = 1000;

/** The trace's edges; beyond the first 1000 the table says how many it leaves out. */
export function EdgeTable({ edges }: { edges: { seq: number; src: string; dst: string; type: string }[] }) {
  const shown = edges.slice(0, SHOWN);
  return (
    <section>
      <h2 className="mb-2 text-lg font-semibold">
        Edges <span className="text-sm font-normal text-slate-500">{edges.length.toLocaleString("en")}</span>
      </h2>
      <div className="max-h-96 overflow-auto rounded border border-slate-200 bg-white" tabIndex={0} role="region" aria-label="Edges">
        <table className="w-full text-sm" data-testid="edge-table">
          <thead className="sticky top-0 bg-slate-100 text-left text-xs uppercase tracking-wide text-slate-600">
            <tr>
              <th className="px-3 py-2 font-medium">From</th>
              <th className="px-3 py-2 font-medium">To</th>
              <th className="px-3 py-2 font-medium">Kind</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((e) => (
              <tr key={e.seq} className="border-t border-slate-100" data-testid="edge-row">
                <td className="px-3 py-1 font-mono text-xs">{e.src}</td>
                <td className="px-3 py-1 font-mono text-xs">{e.dst}</td>
                <td className="px-3 py-1">{e.type}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {edges.length > SHOWN && <p className="mt-1 text-sm text-slate-500">Showing the first {SHOWN} of {edges.length.toLocaleString("en")} edges.</p>}
    </section>
  );
}
