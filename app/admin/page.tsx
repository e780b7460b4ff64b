import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { listApiKeys } from "@/lib/server/auth/api-keys";
import { currentSession } from "@/lib/server/auth/current";
import { listUsers } from "@/lib/server/auth/users";
import { listTokenizers } from "@/lib/server/gateway/tokenizers";
import { listUpstreams } from "@/lib/server/gateway/upstreams";
import { traceFacets } from "@/lib/server/queries/traces";
import { GatewayPanel } from "./_components/gateway-panel";
import { KeysPanel } from "./_components/keys-panel";
import { TokenizerPanel } from "./_components/tokenizer-panel";
import { UsersPanel } from "./_components/users-panel";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Accounts and keys" };

/** Users, their roles per project, and API keys (site admins only; the API checks again on every change). */
export default async function AdminPage() {
  const session = await currentSession();
  if (session.open_mode) {
    return (
      <div className="max-w-2xl space-y-3">
        <h1 className="text-2xl font-semibold">Admin</h1>
        <p className="text-sm text-slate-600">
          Baton is in open local mode: there are no accounts yet. Create the first admin with the setup link printed when Baton starts
          (or set BATON_ADMIN_EMAIL and BATON_ADMIN_PASSWORD and restart); then come back here to add people and API keys.
        </p>
      </div>
    );
  }
  if (!session.user) redirect("/signin?next=/admin");
  if (!session.user.is_admin) {
    return (
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold">Admin</h1>
        <p className="text-sm text-slate-600">Only site admins manage users and API keys.</p>
      </div>
    );
  }
  const [users, keys, facets, upstreams, tokenizers] = await Promise.all([listUsers(), listApiKeys(), traceFacets(null), listUpstreams(), listTokenizers()]);
  const projects = [...new Set(["default", ...facets.projects])].sort();
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold">Admin</h1>
      <UsersPanel users={users} projects={projects} selfId={session.user.id} />
      <KeysPanel keys={keys} users={users} selfId={session.user.id} />
      <GatewayPanel upstreams={upstreams} projects={projects} />
      <TokenizerPanel tokenizers={tokenizers} projects={projects} />
    </div>
  );
}
