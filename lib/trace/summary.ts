/** A one-line summary of an event for tables, from its fields only (never its raw content). */
export interface SummaryFields {
  type: string;
  from?: string | null;
  to?: string | null;
  tool?: string | null;
  decision?: string | null;
  reason?: string | null;
  status?: string | null;
  content_ref?: string | null;
  trusted?: boolean | null;
}

export function eventSummary(e: SummaryFields): string {
  const parts: string[] = [];
  switch (e.type) {
    case "orchestrator_decision":
      parts.push(e.decision ? `decide: ${e.decision}` : "decision");
      if (e.reason) parts.push(`(${e.reason})`);
      break;
    case "spawn":
      parts.push(e.to ? `spawn ${e.to}` : "spawn");
      break;
    case "despawn":
      parts.push(e.to ? `despawn ${e.to}` : "despawn");
      break;
    case "message":
    case "return":
      // a model turn recorded by the gateway names neither end: the type alone, not "? → ?"
      parts.push(e.from && e.to ? `${e.type} ${e.from} → ${e.to}` : e.from ? `${e.type} from ${e.from}` : e.to ? `${e.type} to ${e.to}` : e.type);
      break;
    case "tool_call":
    case "tool_result":
      parts.push(`${e.type === "tool_call" ? "call" : "result of"} ${e.tool ?? "tool"}`);
      break;
    default:
      parts.push(e.type.replace(/_/g, " "));
  }
  if (e.status === "error") parts.push("· error");
  if (e.trusted === false) parts.push("· untrusted");
  if (e.content_ref) parts.push(`· ${e.content_ref}`);
  return parts.join(" ");
}
