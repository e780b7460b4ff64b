"use client";

import { creditEffect, labelOptions, valueText } from "@/lib/annotate/options";
import type { Rubric } from "@/lib/rubrics";
import { SaveBadge } from "./save-badge";
import type { LabelState } from "./store";

/** One field of the unit being labelled: a family, on an event or on the whole trace. */
export interface LabelField {
  family: string;
  unit: "event" | "trace";
}

interface Props {
  fields: LabelField[];
  focused: number;
  drafts: Record<string, number>;
  saved: Record<string, LabelState | undefined>;
  comments: Record<string, string>;
  commenting: string | null;
  rubrics: Record<string, Rubric>;
  weights: Record<string, number>;
  disabled?: boolean;
  onChoose: (field: number, value: number) => void;
  onFocus: (field: number) => void;
  onComment: (family: string, text: string) => void;
  onCloseComment: () => void;
}

/**
 * The unit's fields with their options numbered by key, the rubric (what
 * -1 / 0 / +1 mean) and how the value enters credit beside them, the saved
 * value and its save state. Mouse and keyboard alike: a click chooses.
 */
export function LabelFields(p: Props) {
  return (
    <ul className="space-y-2" data-testid="label-fields">
      {p.fields.map((f, i) => (
        <FieldRow key={`${f.unit}:${f.family}`} field={f} index={i} {...p} />
      ))}
    </ul>
  );
}

function FieldRow({ field, index, focused, drafts, saved, comments, commenting, rubrics, weights, disabled, onChoose, onFocus, onComment, onCloseComment }: Props & { field: LabelField; index: number }) {
  const options = labelOptions(field.family, field.unit);
  const draft = drafts[field.family];
  const label = saved[field.family];
  const rubric = rubrics[field.family];
  const isFocused = index === focused;
  const taskTrace = field.family === "task_success" && field.unit === "trace";
  return (
    <li
      className={`rounded border p-2 text-sm ${isFocused ? "border-blue-600 bg-blue-50 dark:bg-blue-950 dark:text-slate-900" : "border-slate-200 bg-white"}`}
      data-testid={`field-${field.family}`}
      data-focused={isFocused}
      onClick={() => onFocus(index)}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="w-44 font-medium">{field.family}{field.unit === "trace" ? " (whole trace)" : ""}</span>
        <span className="flex flex-wrap gap-1">
          {options.map((o) => (
            <button
              key={o.key}
              type="button"
              disabled={disabled}
              onClick={(e) => {
                e.stopPropagation();
                onFocus(index);
                onChoose(index, o.value);
              }}
              data-testid={`option-${field.family}-${o.key}`}
              data-chosen={draft === o.value}
              className={`rounded border px-1.5 py-0.5 text-xs ${draft === o.value ? "border-blue-700 bg-blue-700 text-white" : label?.value === o.value ? "border-emerald-600 text-emerald-800" : "border-slate-300 hover:bg-slate-100"}`}
            >
              <kbd className="mr-1 font-mono opacity-70">{o.key}</kbd>
              {o.text}
            </button>
          ))}
        </span>
        {label && (
          <span className="text-xs" data-testid={`saved-${field.family}`} data-value={label.value}>
            saved: <strong>{valueText(field.family, field.unit, label.value)}</strong> <SaveBadge label={label} />
          </span>
        )}
      </div>
      {rubric && (
        <dl className="mt-1 grid grid-cols-[5.5rem_1fr] gap-x-2 text-xs text-slate-600" data-testid={`rubric-${field.family}`}>
          <dt>{taskTrace ? "fail (0)" : field.family === "cost" ? "cheap (−1)" : "−1"}</dt>
          <dd>{rubric.negative}</dd>
          {!taskTrace && (
            <>
              <dt>0</dt>
              <dd>{rubric.neutral}</dd>
            </>
          )}
          <dt>{taskTrace ? "success (1)" : field.family === "cost" ? "wasteful (+1)" : "+1"}</dt>
          <dd>{rubric.positive}</dd>
        </dl>
      )}
      <p className="mt-0.5 text-xs text-slate-600" data-testid={`effect-${field.family}`}>{creditEffect(field.family, weights[field.family] ?? 1)}</p>
      {commenting === field.family ? (
        <textarea
          autoFocus
          aria-label={`Comment on ${field.family}`}
          data-testid={`comment-${field.family}`}
          className="mt-1 w-full rounded border border-slate-300 bg-white p-1 text-xs"
          value={comments[field.family] ?? ""}
          onChange={(e) => onComment(field.family, e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Escape" || (e.key === "Enter" && !e.shiftKey)) {
              e.preventDefault();
              e.stopPropagation();
              onCloseComment();
            }
          }}
          placeholder="Comment (Enter or Esc closes; saved with the label)"
        />
      ) : (
        comments[field.family] && <p className="mt-0.5 text-xs italic text-slate-600" data-testid={`comment-text-${field.family}`}>“{comments[field.family]}”</p>
      )}
    </li>
  );
}
