import { readFile } from "node:fs/promises";
import path from "node:path";
import { notFound } from "next/navigation";
import Markdown from "react-markdown";
import rehypeSlug from "rehype-slug";
import remarkGfm from "remark-gfm";

/** The project's docs/*.md served in the app, so metric panels can link to their definitions. Raw HTML in markdown is not rendered. */
const PAGES = new Set(["metrics", "api", "adapters", "otlp"]);

export default async function DocPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  if (!PAGES.has(name)) notFound();
  const text = await readFile(path.join(process.cwd(), "docs", `${name}.md`), "utf8").catch(() => null);
  if (text === null) notFound();
  return (
    <article className="prose-baton max-w-4xl">
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSlug]}>{text}</Markdown>
    </article>
  );
}
