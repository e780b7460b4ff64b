"use client";

import Link from "next/link";
import { useState } from "react";
import { call } from "@/lib/api/client";
import { signOut as signOutEndpoint } from "@/lib/api/contracts/auth";

interface MenuUser {
  name: string;
  email: string;
  is_admin: boolean;
}

/** The header's account corner: who is signed in, with Admin and Sign out; else a Sign in link. */
export function UserMenu({ user, openMode }: { user: MenuUser | null; openMode: boolean }) {
  const [error, setError] = useState<string | null>(null);
  if (openMode) return <span className="text-xs text-slate-500">local user</span>;
  if (!user) {
    return (
      <Link href="/signin" className="text-sm text-slate-600 hover:text-slate-900" data-testid="sign-in-link">
        Sign in
      </Link>
    );
  }
  const signOut = async () => {
    const result = await call(signOutEndpoint);
    if (!result.ok) return setError(result.message);
    window.location.assign("/");
  };
  return (
    <div className="flex items-center gap-4 text-sm">
      {user.is_admin && (
        <Link href="/admin" className="text-slate-600 hover:text-slate-900">
          Admin
        </Link>
      )}
      <span data-testid="signed-in-user" title={user.email} className="text-slate-700">
        {user.name}
      </span>
      <button type="button" onClick={() => void signOut()} className="text-slate-600 hover:text-slate-900">
        Sign out
      </button>
      {error && <span className="text-xs text-red-700">{error}</span>}
    </div>
  );
}
