import type { Metadata } from "next";
import Link from "next/link";
import { safeNextPath } from "@/lib/api/auth";
import { currentSession } from "@/lib/server/auth/current";
import { SignInForm } from "./_components/sign-in-form";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeNextPath((await searchParams).next);
  const session = await currentSession();
  return (
    <div className="mx-auto max-w-sm space-y-4">
      <h1 className="text-2xl font-semibold">Sign in</h1>
      {session.open_mode ? (
        <p className="text-sm text-slate-600">
          Baton is in open local mode: there is no admin account yet, and no sign-in is needed. The first admin is created with the
          setup link printed when Baton starts.
        </p>
      ) : session.user ? (
        <p className="text-sm text-slate-600">
          You are signed in as {session.user.name} ({session.user.email}).{" "}
          <Link href={next} className="text-blue-700 hover:underline">
            Continue
          </Link>
        </p>
      ) : (
        <SignInForm next={next} />
      )}
    </div>
  );
}
