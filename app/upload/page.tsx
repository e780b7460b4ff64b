import type { Metadata } from "next";
import { maxBodyBytes } from "@/lib/server/http";
import { UploadDropzone } from "./_components/upload-dropzone";

// the body limit is read when the page is served (BATON_MAX_BODY_MB), not when it was built
export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Upload traces" };

export default function UploadPage() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Upload traces</h1>
      <p className="max-w-3xl text-sm text-slate-600">
        Drop trace files: the paper&apos;s orchestration-trace schema (JSON or JSONL, with Baton&apos;s extensions), or runs exported by other
        systems (Who&amp;When, MultiAgentBench, tau-bench, ChatDev, AgentOps, OpenTelemetry), their format detected from the content. Each file is
        stored all or nothing; invalid files list every problem with its JSON path. Files up to{" "}
        <span data-testid="upload-limit">{formatMb(maxBodyBytes())}</span> upload here; larger ones load with{" "}
        <code>npm run ingest -- &lt;file or folder&gt;</code>, which streams files of any size.
      </p>
      <UploadDropzone maxBytes={maxBodyBytes()} />
    </div>
  );
}

function formatMb(bytes: number): string {
  return `${(bytes / 1048576).toLocaleString("en", { maximumFractionDigits: 1 })} MB`;
}
