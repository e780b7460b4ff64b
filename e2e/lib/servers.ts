/** The e2e server's port, and the port of the second server of the same build and database (BATON_PUBLIC_READ=0). */
export const port = Number(process.env.BATON_E2E_PORT ?? 3100);
export const privatePort = Number(process.env.BATON_E2E_PRIVATE_PORT ?? port + 1);
