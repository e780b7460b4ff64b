import type { Metadata } from "next";
import localFont from "next/font/local";
import Link from "next/link";
import type { ReactNode } from "react";
import { OpenModeBanner } from "@/components/open-mode-banner";
import { UserMenu } from "@/components/user-menu";
import { currentSession } from "@/lib/server/auth/current";
import "./globals.css";

const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  variable: "--font-inter",
  display: "swap",
});

export const metadata: Metadata = {
  title: "Baton",
  description: "Orchestration traces of LLM multi-agent systems: graph, rewards, credit, metrics.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  return (
    <html lang="en" className={inter.variable}>
      <body className="min-h-screen font-sans">
        {session.open_mode && <OpenModeBanner />}
        <header className="border-b border-slate-200 bg-white">
          <nav className="mx-auto flex max-w-7xl items-center gap-6 px-6 py-3">
            <Link href="/" className="text-lg font-semibold tracking-tight">
              Baton
            </Link>
            <Link href="/" className="text-sm text-slate-600 hover:text-slate-900">
              Traces
            </Link>
            <Link href="/queues" className="text-sm text-slate-600 hover:text-slate-900">
              Queues
            </Link>
            <Link href="/upload" className="text-sm text-slate-600 hover:text-slate-900">
              Upload
            </Link>
            <div className="ml-auto">
              <UserMenu user={session.user} openMode={session.open_mode} />
            </div>
          </nav>
        </header>
        <main className="mx-auto max-w-7xl px-6 py-6">{children}</main>
      </body>
    </html>
  );
}
