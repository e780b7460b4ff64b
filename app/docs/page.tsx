import type { Metadata } from "next";
import Link from "next/link";
import { DOC_PAGES } from "./_pages";


export const metadata: Metadata = { title: "Documentation" };

export default function DocsIndex() {
  return (
    <div className="max-w-3xl space-y-4">
      <h1 className="text-2xl font-semibold">Documentation</h1>
      <ul className="space-y-3" data-testid="docs-index">
        {DOC_PAGES.map(([name, title, what]) => (
          <li key={name} className="rounded border border-slate-200 bg-white p-3">
            <Link href={`/docs/${name}`} className="font-medium text-blue-700 hover:underline">{title}</Link>
            <p className="text-sm text-slate-700">{what}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
