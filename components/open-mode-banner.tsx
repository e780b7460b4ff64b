/** Shown on every page while no admin account exists (open local mode). */
export function OpenModeBanner() {
  return (
    <div role="status" data-testid="open-mode-banner" className="border-b border-amber-300 bg-amber-50 px-6 py-1.5 text-center text-xs text-amber-900">
      <strong>Open local mode:</strong> no admin account yet, so anyone who can reach this server may read, upload, annotate and delete.
      Create the first admin with the setup link printed at start, or with BATON_ADMIN_EMAIL and BATON_ADMIN_PASSWORD.
    </div>
  );
}
