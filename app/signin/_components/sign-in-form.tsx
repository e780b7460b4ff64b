"use client";

import { useActionState } from "react";
import { call, describeFailure } from "@/lib/api/client";
import { signIn as signInEndpoint } from "@/lib/api/contracts/auth";
import { formText } from "@/lib/api/send";

interface State {
  error: string | null;
  /** kept across React's reset of the form after each submission */
  email: string;
}

/** Email and password; on success a full page load of `next`, so that every server component sees the session. */
export function SignInForm({ next }: { next: string }) {
  const [state, signIn, pending] = useActionState(
    async (_previous: State, form: FormData): Promise<State> => {
      const email = formText(form, "email");
      const result = await call(signInEndpoint, { body: { email, password: formText(form, "password") } });
      if (!result.ok) return { error: describeFailure(result), email };
      window.location.assign(next);
      return { error: null, email };
    },
    { error: null, email: "" },
  );
  const input = "w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm";
  return (
    <form action={signIn} className="space-y-3 rounded border border-slate-200 bg-white p-4">
      <label className="block space-y-1 text-sm font-medium text-slate-700">
        <span>Email</span>
        <input name="email" type="email" autoComplete="username" defaultValue={state.email} required className={input} />
      </label>
      <label className="block space-y-1 text-sm font-medium text-slate-700">
        <span>Password</span>
        <input name="password" type="password" autoComplete="current-password" required className={input} />
      </label>
      {state.error && (
        <p role="alert" className="text-sm text-red-700" data-testid="sign-in-error">
          {state.error}
        </p>
      )}
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white hover:bg-slate-700 disabled:opacity-50">
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
