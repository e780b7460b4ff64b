"use client";

import { ROLES, type ApiUser, type MembershipInput, type Role } from "@/lib/api/auth";
import { call, formBody } from "@/lib/api/client";
import { deleteUser, updateUser } from "@/lib/api/contracts/admin";
import { formText } from "@/lib/api/send";
import { CreateUserForm } from "./create-user-form";
import { useAdminCall } from "./use-admin-call";

/** Every account with its roles per project; changes go through PATCH/DELETE /api/admin/users/{id}. */
export function UsersPanel({ users, projects, selfId }: { users: ApiUser[]; projects: string[]; selfId: number }) {
  return (
    <section className="space-y-3">
      <h2 className="text-lg font-semibold">Users</h2>
      <CreateUserForm projects={projects} />
      <table className="w-full border-collapse text-sm" data-testid="users-table">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-500">
            <th className="py-1 pr-3">Email</th>
            <th className="py-1 pr-3">Name</th>
            <th className="py-1 pr-3">Site admin</th>
            <th className="py-1 pr-3">Roles per project</th>
            <th className="py-1" />
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <UserRow key={user.id} user={user} projects={projects} self={user.id === selfId} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function UserRow({ user, projects, self }: { user: ApiUser; projects: string[]; self: boolean }) {
  const { error, run } = useAdminCall();
  const patch = (body: Record<string, unknown>) => run(call(updateUser, { params: { id: String(user.id) }, body: formBody(updateUser, body) }));
  const withRole = (project: string, role: Role | null): MembershipInput[] => [
    ...user.memberships.filter((m) => m.project !== project),
    ...(role ? [{ project, role }] : []),
  ];
  const setRole = async (form: FormData) => {
    const project = formText(form, "project").trim();
    if (project) await patch({ memberships: withRole(project, form.get("role") as Role) });
  };
  return (
    <tr className="border-b border-slate-100 align-top" data-testid="user-row">
      <td className="py-2 pr-3">{user.email}</td>
      <td className="py-2 pr-3">{user.name}</td>
      <td className="py-2 pr-3">
        <input type="checkbox" aria-label={`site admin: ${user.email}`} checked={user.is_admin} onChange={(e) => void patch({ is_admin: e.target.checked })} />
      </td>
      <td className="space-y-1 py-2 pr-3">
        <div className="flex flex-wrap gap-1">
          {user.memberships.map((m) => (
            <span key={m.project} className="rounded bg-slate-100 px-1.5 py-0.5 text-xs" data-testid="membership">
              {m.project}: {m.role}{" "}
              <button type="button" aria-label={`remove ${m.project} role`} className="text-slate-500 hover:text-red-700" onClick={() => void patch({ memberships: withRole(m.project, null) })}>
                ×
              </button>
            </span>
          ))}
        </div>
        <form action={setRole} className="flex gap-1">
          <input name="project" list="admin-projects" placeholder="project" className="w-28 rounded border border-slate-300 px-1 text-xs" defaultValue={projects[0]} />
          <select name="role" className="rounded border border-slate-300 text-xs" defaultValue="viewer">
            {ROLES.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
          <button type="submit" className="text-xs text-blue-700 hover:underline">
            set role
          </button>
        </form>
        {error && <p role="alert" className="text-xs text-red-700">{error}</p>}
      </td>
      <td className="py-2">
        {!self && (
          <button type="button" className="text-xs text-red-700 hover:underline" onClick={() => void (window.confirm(`Delete ${user.email}?`) && run(call(deleteUser, { params: { id: String(user.id) } })))}>
            delete
          </button>
        )}
      </td>
    </tr>
  );
}
