import type { Metadata } from "next";
import { RubricEditor } from "@/components/rubrics/rubric-editor";
import { requirePageRead } from "@/lib/server/auth/page-access";
import { projectRubrics } from "@/lib/server/queries/rubrics";
import { GraderFieldsEditor } from "@/components/rubrics/grader-fields-editor";
import { storedGraderFields } from "@/lib/annotate/grader-fields";
import { prisma } from "@/lib/server/db/client";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Rubrics" };

/** `/rubrics?project=`: what -1, 0 and +1 mean per family in a project, and the metadata fields its graders see; its admins edit them here. */
export default async function RubricsPage({ searchParams }: { searchParams: Promise<{ project?: string | string[] }> }) {
  const raw = (await searchParams).project;
  const project = (Array.isArray(raw) ? raw[0] : raw) || "default";
  await requirePageRead(`/rubrics?project=${encodeURIComponent(project)}`, project);
  const [{ rubrics, custom }, row] = await Promise.all([projectRubrics(project), prisma().project.findUnique({ where: { name: project }, select: { graderFields: true } })]);
  return (
    <div className="space-y-3">
      <h1 className="text-2xl font-semibold">Rubrics of {project}</h1>
      <p className="text-sm text-slate-600">
        Shown beside the value keys when labeling. Trace-level task_success is 0 (fail) or 1 (success); cost is a penalty: +1 means wasteful and enters credit with the preset&apos;s negative cost weight.
      </p>
      {row && <GraderFieldsEditor project={project} fields={storedGraderFields(row.graderFields)} />}
      <RubricEditor project={project} rubrics={Object.values(rubrics)} custom={custom} />
    </div>
  );
}
