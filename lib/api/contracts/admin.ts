import { z } from "zod";
import { apiKeyInfo, apiUser, createKeyInput, createUserInput, updateUserInput } from "../auth";
import { defineEndpoint, idParams } from "../contract";

/** Site administration: accounts and API keys (site admins only; docs/api.md "Accounts and access"). */

export const listUsers = defineEndpoint({
  method: "GET",
  path: "/api/admin/users",
  output: z.object({ users: z.array(apiUser) }),
  errors: [],
});

export const createUser = defineEndpoint({
  method: "POST",
  path: "/api/admin/users",
  body: createUserInput,
  output: z.object({ user: apiUser }),
  errors: ["conflict"],
});

export const updateUser = defineEndpoint({
  method: "PATCH",
  path: "/api/admin/users/{id}",
  params: idParams,
  body: updateUserInput,
  output: z.object({ user: apiUser }),
  errors: ["not_found", "conflict"],
});

export const deleteUser = defineEndpoint({
  method: "DELETE",
  path: "/api/admin/users/{id}",
  params: idParams,
  output: z.object({ deleted: z.number(), open_mode: z.boolean() }),
  errors: ["not_found"],
});

export const listKeys = defineEndpoint({
  method: "GET",
  path: "/api/admin/keys",
  output: z.object({ keys: z.array(apiKeyInfo) }),
  errors: [],
});

export const createKey = defineEndpoint({
  method: "POST",
  path: "/api/admin/keys",
  body: createKeyInput,
  /** `key` is in this answer and nowhere else, ever */
  output: z.object({ key: z.string(), api_key: apiKeyInfo }),
  errors: [],
});

export const revokeKey = defineEndpoint({
  method: "DELETE",
  path: "/api/admin/keys/{id}",
  params: idParams,
  output: z.object({ api_key: apiKeyInfo }),
  errors: ["not_found"],
});
