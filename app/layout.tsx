import type { Metadata } from "next";
import localFont from "next/font/local";
import Link from "next/link";
import type { ReactNode } from "react";
import { ThemeToggle } from "@/components/meeting/theme-toggle";
import { THEME_SCRIPT } from "@/components/meeting/theme";
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
  title: { default: "Baton", template: "%s · Baton" },
  description: "Orchestration traces of LLM multi-agent systems: graph, rewards, credit, metrics.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  return (
    // the theme script sets `dark` / `presenting` on <html> before hydration, hence suppressHydrationWarning
    <html lang="en" className={inter.variable} suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen font-sans">
        <div className="app-chrome">
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
              <Link href="/judges" className="text-sm text-slate-600 hover:text-slate-900">
                Judges
              </Link>
              <Link href="/rubrics" className="text-sm text-slate-600 hover:text-slate-900">
                Rubrics
              </Link>
              <Link href="/datasets" className="text-sm text-slate-600 hover:text-slate-900">
                Datasets
              </Link>
              <Link href="/upload" className="text-sm text-slate-600 hover:text-slate-900">
                Upload
              </Link>
              <Link href="/dashboard" className="text-sm text-slate-600 hover:text-slate-900">
                Dashboard
              </Link>
              <Link href="/decisions" className="text-sm text-slate-600 hover:text-slate-900">
                Decisions
              </Link>
              <Link href="/attribution" className="text-sm text-slate-600 hover:text-slate-900">
                Attribution
              </Link>
              <Link href="/heatmaps" className="text-sm text-slate-600 hover:text-slate-900">
                Heatmaps
              </Link>
              <Link href="/present" className="text-sm text-slate-600 hover:text-slate-900">
                Present
              </Link>
              <Link href="/docs" className="text-sm text-slate-600 hover:text-slate-900">
                Docs
              </Link>
              <div className="ml-auto flex items-center gap-3">
                <ThemeToggle />
                <UserMenu user={session.user} openMode={session.open_mode} />
              </div>
            </nav>
          </header>
        </div>
        {/* a page that needs the whole screen (the trace list's many columns) says so with data-wide */}
        <main className="mx-auto max-w-7xl px-6 py-6 has-[[data-wide]]:max-w-none">{children}</main>
      </body>
    </html>
  );
}
