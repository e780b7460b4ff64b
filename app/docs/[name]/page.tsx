import type { Metadata } from "next";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { notFound } from "next/navigation";
import Markdown from "react-markdown";
import rehypeSlug from "rehype-slug";
import remarkGfm from "remark-gfm";
import { DOC_NAMES, DOC_PAGES } from "../_pages";

export async function generateMetadata({ params }: { params: Promise<{ name: string }> }): Promise<Metadata> {
  const { name } = await params;
  return { title: DOC_PAGES.find(([n]) => n === name)?.[1] ?? "Documentation" };
}

/** The project's docs/*.md served in the app, so metric panels can link to their definitions. Raw HTML in markdown is not rendered. */
export default async function DocPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  if (!DOC_NAMES.has(name)) notFound();
  const text = await readFile(path.join(process.cwd(), "docs", `${name}.md`), "utf8").catch(() => null);
  if (text === null) notFound();
  return (
    <article className="prose-baton max-w-4xl">
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSlug]}>{text}</Markdown>
    </article>
  );
}
