"use client";

import { useActionState } from "react";
import { PASSWORD_MIN, ROLES, type MembershipInput } from "@/lib/api/auth";
import { call, describeFailure, formBody } from "@/lib/api/client";
import { createUser } from "@/lib/api/contracts/admin";
import { formText } from "@/lib/api/send";
import { useRouter } from "next/navigation";

const input = "rounded border border-slate-300 bg-white px-2 py-1 text-sm";
const label = "flex flex-col gap-1 text-xs font-medium text-slate-600";

interface State {
  error: string | null;
  /** what was typed, kept when the call fails (React resets the form after each submission) */
  values: { email: string; name: string; project: string; role: string };
}
const EMPTY: State = { error: null, values: { email: "", name: "", project: "default", role: "annotator" } };

/** A new account: email, name, initial password, an optional first role, optionally site admin. */
export function CreateUserForm({ projects }: { projects: string[] }) {
  const router = useRouter();
  const [state, create] = useActionState(async (_previous: State, form: FormData): Promise<State> => {
    const values = { email: formText(form, "email"), name: formText(form, "name"), project: formText(form, "project"), role: formText(form, "role") };
    const memberships: MembershipInput[] = values.role ? [{ project: values.project || "default", role: values.role as MembershipInput["role"] }] : [];
    const body = { email: values.email, name: values.name, password: formText(form, "password"), is_admin: form.get("is_admin") === "on", memberships };
    const result = await call(createUser, { body: formBody(createUser, body) });
    if (!result.ok) return { error: describeFailure(result), values };
    router.refresh();
    return EMPTY;
  }, EMPTY);
  const v = state.values;
  return (
    <form action={create} aria-label="Add a user" className="flex flex-wrap items-end gap-3 rounded border border-slate-200 bg-white p-3">
      <label className={label}>
        Email
        <input name="email" type="email" required defaultValue={v.email} className={`${input} w-56`} />
      </label>
      <label className={label}>
        Name
        <input name="name" required defaultValue={v.name} className={`${input} w-36`} />
      </label>
      <label className={label}>
        Password
        <input name="password" type="password" autoComplete="new-password" minLength={PASSWORD_MIN} required className={`${input} w-36`} />
      </label>
      <label className={label}>
        Project
        <input name="project" list="admin-projects" defaultValue={v.project} className={`${input} w-32`} />
        <datalist id="admin-projects">{projects.map((p) => <option key={p} value={p} />)}</datalist>
      </label>
      <label className={label}>
        Role
        <select name="role" defaultValue={v.role} className={input}>
          <option value="">none</option>
          {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
      </label>
      <label className="flex items-center gap-1 text-xs font-medium text-slate-600">
        <input name="is_admin" type="checkbox" /> site admin
      </label>
      <button type="submit" className="rounded bg-slate-900 px-3 py-1 text-sm text-white hover:bg-slate-700">
        Add user
      </button>
      {state.error && <p role="alert" className="w-full text-sm text-red-700">{state.error}</p>}
    </form>
  );
}
