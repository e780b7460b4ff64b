"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { fieldLines, parseFieldLines, type GraderField } from "@/lib/annotate/grader-fields";
import { call, describeFailure } from "@/lib/api/client";
import { setGraderFields } from "@/lib/api/contracts/projects";
import { formText } from "@/lib/api/send";

/**
 * The metadata fields graders of a whole trace see after its task
 * definition (people and judges alike): one a line, `Label = path` or the
 * path alone. Its admins edit it; the API answers others with a 403, shown here.
 */
export function GraderFieldsEditor({ project, fields }: { project: string; fields: GraderField[] }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  return (
    <form
      className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm"
      aria-label="Fields shown to graders"
      data-testid="grader-fields-form"
      onSubmit={(e) => {
        e.preventDefault();
        const lines = formText(new FormData(e.currentTarget), "fields");
        void call(setGraderFields, { params: { project }, body: { fields: parseFieldLines(lines) } }).then((result) => {
          setMessage(result.ok ? "saved" : describeFailure(result));
          if (result.ok) router.refresh();
        });
      }}
    >
      <h2 className="font-semibold">Fields shown to graders</h2>
      <p className="text-xs text-slate-600">
        Shown to people (label page, queues) and judges (their prompt) for a whole-trace unit, after the task, reference answer and policy.
        One a line: <code>Label = path.in.metadata</code>, or the path alone, e.g. <code>Level = labels.level</code>.
      </p>
      <textarea name="fields" aria-label="fields, one a line" defaultValue={fieldLines(fields)} rows={Math.max(3, fields.length + 1)} className="block w-full rounded border border-slate-300 bg-white p-1 font-mono text-xs" />
      <button type="submit" className="rounded bg-slate-900 px-2 py-1 text-white hover:bg-slate-700">Save fields</button>
      {message && <p data-testid="grader-fields-message" role="status">{message}</p>}
    </form>
  );
}
