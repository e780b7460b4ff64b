/**
 * Further metadata a project shows graders of a trace-level unit (people on
 * the label page and in queues, judges in their prompt), after the run's
 * task definition: a difficulty level, the benchmark's split, a customer
 * tier. A field is a dot path into `metadata` with an optional label.
 */
import { z } from "zod";
import { asText, at } from "./task-definition";

export const MAX_GRADER_FIELDS = 20;

const segment = /^[A-Za-z0-9_-]{1,64}$/;

export const graderFieldSchema = z.strictObject({
  /** a dot path into metadata, e.g. `labels.level` (letters, digits, _ and -; up to 8 parts) */
  path: z.string().trim().min(1).max(300).refine((p) => p.split(".").length <= 8 && p.split(".").every((s) => segment.test(s)), "must be a dot path such as labels.level (letters, digits, _ or - between dots, up to 8 parts)"),
  label: z.string().trim().max(80).optional(),
});
export type GraderField = z.infer<typeof graderFieldSchema>;

export const graderFieldsInput = z.strictObject({
  fields: z.array(graderFieldSchema).max(MAX_GRADER_FIELDS).refine((fs) => new Set(fs.map((f) => f.path)).size === fs.length, "each path once"),
});

/** The stored list, read leniently: anything unreadable is no field (a bad row never breaks a label page). */
export function storedGraderFields(value: unknown): GraderField[] {
  const parsed = graderFieldsInput.shape.fields.safeParse(value);
  return parsed.success ? parsed.data : [];
}

export interface GraderFieldValue {
  label: string;
  /** where it was read, e.g. `metadata.labels.level` */
  source: string;
  /** the value as text; null when this run has none there */
  text: string | null;
}

/** Each field's value in this run's metadata, as text (strings as they are, numbers as written, lists one a line). */
export function graderFieldValues(metadata: unknown, fields: readonly GraderField[]): GraderFieldValue[] {
  return fields.map((f) => {
    const value = at(metadata, f.path.split("."));
    const text = asText(value) ?? (typeof value === "boolean" ? String(value) : value === undefined || value === null ? null : JSON.stringify(value));
    return { label: f.label || f.path, source: `metadata.${f.path}`, text };
  });
}

/** The settings form's text, one field a line: `Label = path`, or the path alone. */
export function parseFieldLines(text: string): GraderField[] {
  return text.split("\n").map((l) => l.trim()).filter(Boolean).map((line) => {
    const eq = line.lastIndexOf("=");
    return eq < 0 ? { path: line } : { label: line.slice(0, eq).trim(), path: line.slice(eq + 1).trim() };
  });
}

export function fieldLines(fields: readonly GraderField[]): string {
  return fields.map((f) => (f.label ? `${f.label} = ${f.path}` : f.path)).join("\n");
}
