import { z } from "zod";
import { graderFieldsInput } from "@/lib/annotate/grader-fields";
import { rubricsInput } from "@/lib/rubrics";
import { defineEndpoint } from "../contract";

/** A project's grading settings: its rubrics and the metadata fields graders of a whole trace see. */

const projectParams = z.object({ project: z.string() });

const graderFields = z.object({ project: z.string(), fields: graderFieldsInput.shape.fields });

export const getGraderFields = defineEndpoint({
  method: "GET",
  path: "/api/projects/{project}/grader-fields",
  params: projectParams,
  output: graderFields,
  errors: ["not_found"],
});

export const setGraderFields = defineEndpoint({
  method: "PATCH",
  path: "/api/projects/{project}/grader-fields",
  params: projectParams,
  body: graderFieldsInput,
  output: graderFields,
  errors: ["not_found"],
});

const rubrics = z.object({
  project: z.string(),
  rubrics: z.array(z.object({ family: z.string(), negative: z.string(), neutral: z.string(), positive: z.string(), custom: z.boolean() })),
});

export const getRubrics = defineEndpoint({
  method: "GET",
  path: "/api/projects/{project}/rubrics",
  params: projectParams,
  output: rubrics,
  errors: ["not_found"],
});

export const setRubrics = defineEndpoint({
  method: "PATCH",
  path: "/api/projects/{project}/rubrics",
  params: projectParams,
  body: rubricsInput,
  output: rubrics,
  errors: ["not_found"],
});
