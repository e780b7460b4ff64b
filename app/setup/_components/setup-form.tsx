"use client";

import { useActionState } from "react";
import { PASSWORD_MIN } from "@/lib/api/auth";
import { call, describeFailure } from "@/lib/api/client";
import { setup } from "@/lib/api/contracts/auth";
import { formText } from "@/lib/api/send";

interface State {
  error: string | null;
  /** kept across React's reset of the form after each submission (passwords are typed again) */
  name: string;
  email: string;
}

/** Name, email and password of the first admin; the setup token rides along from the link. */
export function SetupForm({ token }: { token: string }) {
  const [state, create, pending] = useActionState(
    async (_previous: State, form: FormData): Promise<State> => {
      const [name, email, password] = [formText(form, "name"), formText(form, "email"), formText(form, "password")];
      if (password !== formText(form, "confirm")) return { error: "the two passwords differ", name, email };
      const result = await call(setup, { body: { token, email, name, password } });
      if (!result.ok) return { error: describeFailure(result), name, email };
      window.location.assign("/admin");
      return { error: null, name, email };
    },
    { error: null, name: "", email: "" },
  );
  const input = "w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm";
  const label = "block space-y-1 text-sm font-medium text-slate-700";
  return (
    <form action={create} className="space-y-3 rounded border border-slate-200 bg-white p-4">
      <label className={label}>
        <span>Name</span>
        <input name="name" defaultValue={state.name} required className={input} />
      </label>
      <label className={label}>
        <span>Email</span>
        <input name="email" type="email" autoComplete="username" defaultValue={state.email} required className={input} />
      </label>
      <label className={label}>
        <span>Password</span>
        <input name="password" type="password" autoComplete="new-password" minLength={PASSWORD_MIN} required className={input} />
      </label>
      <label className={label}>
        <span>Password again</span>
        <input name="confirm" type="password" autoComplete="new-password" minLength={PASSWORD_MIN} required className={input} />
      </label>
      {state.error && (
        <p role="alert" className="text-sm text-red-700">
          {state.error}
        </p>
      )}
      <button type="submit" disabled={pending} className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white hover:bg-slate-700 disabled:opacity-50">
        {pending ? "Creating…" : "Create admin and sign in"}
      </button>
    </form>
  );
}
