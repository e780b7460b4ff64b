/** The e2e server's own build: rebuilding it never pulls `.next` from under a developer's running `npm start`. */
export const e2eDistDir = process.env.BATON_DIST_DIR || ".next-e2e";
