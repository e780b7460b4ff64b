import { z } from "zod";
import { defineEndpoint, idParams } from "../contract";
import { apiDecisiveError, decisiveErrorInput, decisiveErrorsResponse } from "../decisive-errors";

/** A trace's decisive errors: each annotator's "the run went wrong here" and the adjudication (SPEC.md sections 5 and 6). */

export const getDecisiveErrors = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/decisive-error",
  params: idParams,
  output: decisiveErrorsResponse,
  errors: ["not_found"],
});

export const putDecisiveError = defineEndpoint({
  method: "PUT",
  path: "/api/traces/{id}/decisive-error",
  params: idParams,
  body: decisiveErrorInput,
  output: apiDecisiveError,
  errors: ["not_found"],
});

export const deleteDecisiveError = defineEndpoint({
  method: "DELETE",
  path: "/api/traces/{id}/decisive-error",
  params: idParams,
  output: z.object({ deleted: z.literal(true) }),
  errors: ["not_found"],
});

export const adjudicateDecisiveError = defineEndpoint({
  method: "PUT",
  path: "/api/traces/{id}/decisive-error/adjudication",
  params: idParams,
  body: decisiveErrorInput,
  output: decisiveErrorsResponse,
  errors: ["not_found"],
});
