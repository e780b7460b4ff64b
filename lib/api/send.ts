import { csrfHeaders } from "./csrf";

/** What a browser-side call to Baton's JSON API came back with. */
export type SendResult<T> = { ok: true; data: T } | { ok: false; status: number; message: string; details: { path: string; message: string }[] };

interface ErrorShape {
  error?: { message?: unknown; details?: unknown };
}

/**
 * A JSON request from the browser to Baton's API, with the CSRF header that
 * cookie-authenticated writes need; errors come back in the documented
 * shape, read into `message` and `details`.
 */
export async function sendJson<T>(method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE", url: string, body?: unknown): Promise<SendResult<T>> {
  try {
    const response = await fetch(url, {
      method,
      headers: { ...(body !== undefined && { "content-type": "application/json" }), ...(method !== "GET" && csrfHeaders()) },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
    const data: unknown = await response.json().catch(() => null);
    if (response.ok) return { ok: true, data: data as T };
    const error = (data as ErrorShape | null)?.error;
    const details = Array.isArray(error?.details) ? (error.details as { path: string; message: string }[]) : [];
    return { ok: false, status: response.status, message: typeof error?.message === "string" ? error.message : `request failed (${response.status})`, details };
  } catch (error) {
    return { ok: false, status: 0, message: `request failed: ${(error as Error).message}`, details: [] };
  }
}

/** One line for a failed call: the message and, when there are any, the problems with their paths. */
export function describeFailure(result: Extract<SendResult<unknown>, { ok: false }>): string {
  const details = result.details.map((d) => `${d.path}: ${d.message}`).join("; ");
  return details ? `${result.message} (${details})` : result.message;
}

/** A text field of a submitted form ("" when absent or a file). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}
