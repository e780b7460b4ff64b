import "server-only";
import { prisma } from "../db/client";

/**
 * Who may do what. Until an admin account exists Baton runs in open local
 * mode: one local user, everything allowed. (Sessions, API keys and roles
 * are added on top of this contract: `authorize` keeps its signature.)
 */
export type Action = "read" | "ingest" | "annotate" | "admin";

export interface Actor {
  userId: number;
  email: string;
  name: string;
  /** how the request was authenticated */
  via: "open" | "session" | "api_key";
}

const LOCAL_EMAIL = "local@baton.localhost";

/** The single local user of open local mode, created on first use. */
export async function localUser(): Promise<Actor> {
  const user = await prisma().user.upsert({
    where: { email: LOCAL_EMAIL },
    create: { email: LOCAL_EMAIL, name: "local", local: true },
    update: {},
  });
  return { userId: user.id, email: user.email, name: user.name, via: "open" };
}

/**
 * Resolves the actor of a request allowed to do `action` (in `project`, when
 * given); throws ApiError 401/403 otherwise.
 */
export async function authorize(_request: Request, _action: Action, _project?: string): Promise<Actor> {
  return localUser();
}
