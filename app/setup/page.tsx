import type { Metadata } from "next";
import Link from "next/link";
import { isOpenMode } from "@/lib/server/auth/access";
import { setupTokenUsable } from "@/lib/server/auth/bootstrap";
import { SetupForm } from "./_components/setup-form";

export const dynamic = "force-dynamic";
// the token is in this page's URL: never send it along as a Referer
export const metadata: Metadata = { referrer: "no-referrer" };

/** The target of the one-time setup link printed at start: creates the first site admin. */
export default async function SetupPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).token;
  const token = typeof raw === "string" ? raw : "";
  const open = await isOpenMode();
  const usable = open && token !== "" && (await setupTokenUsable(token));
  return (
    <div className="mx-auto max-w-md space-y-4">
      <h1 className="text-2xl font-semibold">Create the first admin</h1>
      {!open ? (
        <p className="text-sm text-slate-600">
          An admin account exists already.{" "}
          <Link href="/signin" className="text-blue-700 hover:underline">
            Sign in
          </Link>
        </p>
      ) : !usable ? (
        <p className="text-sm text-slate-600" data-testid="setup-invalid">
          This setup link is invalid, expired or already used. Baton prints a new one each time it starts (while there is no admin); or
          run <code>npx tsx --conditions=react-server scripts/setup-link.ts</code>.
        </p>
      ) : (
        <>
          <p className="text-sm text-slate-600">
            This account becomes the site admin: it manages users, roles and API keys. Once it exists, Baton leaves open local mode:
            every write needs a sign-in or an API key.
          </p>
          <SetupForm token={token} />
        </>
      )}
    </div>
  );
}
