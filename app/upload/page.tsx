import type { Metadata } from "next";
import { UploadDropzone } from "./_components/upload-dropzone";

export const metadata: Metadata = { title: "Upload traces" };

export default function UploadPage() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Upload traces</h1>
      <p className="max-w-3xl text-sm text-slate-600">
        Drop JSON or JSONL files holding orchestration traces (the paper&apos;s schema plus Baton&apos;s extensions). Each file is
        stored all or nothing; invalid files list every problem with its JSON path.
      </p>
      <UploadDropzone />
    </div>
  );
}
