import { z } from "zod";
import { apiUser, setupInput, signInInput } from "../auth";
import { defineEndpoint } from "../contract";

/** Sessions: sign-in, sign-out, first setup and the current session (docs/api.md "Accounts and access"). */

export const getSession = defineEndpoint({
  method: "GET",
  path: "/api/auth/session",
  output: z.object({ user: apiUser.nullable(), open_mode: z.boolean(), csrf_token: z.string().nullable() }),
  errors: [],
});

export const signIn = defineEndpoint({
  method: "POST",
  path: "/api/auth/signin",
  body: signInInput,
  output: z.object({ user: apiUser, csrf_token: z.string() }),
  errors: ["open_mode", "invalid_credentials"],
});

export const signOut = defineEndpoint({
  method: "POST",
  path: "/api/auth/signout",
  output: z.object({ signed_out: z.literal(true) }),
  errors: [],
});

export const setup = defineEndpoint({
  method: "POST",
  path: "/api/auth/setup",
  body: setupInput,
  output: z.object({ user: apiUser, csrf_token: z.string() }),
  errors: ["open_mode", "conflict"],
});
