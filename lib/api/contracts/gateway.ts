import { z } from "zod";
import { defineEndpoint } from "../contract";
import { gatewayFlushInput, gatewayFlushOutput, gatewayUpstreamInput, gatewayUpstreamOutput, projectTokenizerInput, projectTokenizerOutput } from "../gateway";

/** A project's model gateway settings: its upstream model server and its tokenizer (project admins; docs/gateway.md). */

const projectParams = z.object({ project: z.string() });

export const getGateway = defineEndpoint({
  method: "GET",
  path: "/api/projects/{project}/gateway",
  params: projectParams,
  output: z.object({ upstream: gatewayUpstreamOutput.nullable() }),
  errors: ["not_found"],
});

export const putGateway = defineEndpoint({
  method: "PUT",
  path: "/api/projects/{project}/gateway",
  params: projectParams,
  body: gatewayUpstreamInput,
  output: z.object({ upstream: gatewayUpstreamOutput }),
  errors: ["not_found"],
});

export const deleteGateway = defineEndpoint({
  method: "DELETE",
  path: "/api/projects/{project}/gateway",
  params: projectParams,
  /** 204, no body */
  output: z.null(),
  errors: ["not_found"],
});

export const getTokenizer = defineEndpoint({
  method: "GET",
  path: "/api/projects/{project}/tokenizer",
  params: projectParams,
  output: z.object({ tokenizer: projectTokenizerOutput.nullable() }),
  errors: ["not_found"],
});

export const putTokenizer = defineEndpoint({
  method: "PUT",
  path: "/api/projects/{project}/tokenizer",
  params: projectParams,
  body: projectTokenizerInput,
  output: z.object({ tokenizer: projectTokenizerOutput }),
  errors: ["not_found"],
});

export const deleteTokenizer = defineEndpoint({
  method: "DELETE",
  path: "/api/projects/{project}/tokenizer",
  params: projectParams,
  /** 204, no body */
  output: z.null(),
  errors: ["not_found", "conflict"],
});

/** `POST /api/llm/flush`: the gateway's runs of a project (or one run) become traces now, without waiting for them to go idle. */
export const flushGateway = defineEndpoint({
  method: "POST",
  path: "/api/llm/flush",
  body: gatewayFlushInput,
  output: gatewayFlushOutput,
  errors: [],
});
