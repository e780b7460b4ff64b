import { malformedJson } from "../ingest/json-error";
import { createReadStream } from "node:fs";
import { open, readFile, readdir, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { adaptAgentOps } from "./agentops";
import { adaptChatDevRun } from "./chatdev";
import { FIRST_BYTES, detectFormat } from "./detect";
import { adaptMarbleRun } from "./marble";
import { adaptOtlpFile } from "./otlp-export";
import { baseName } from "./provenance";
import { adaptTauRun } from "./taubench";
import { AdapterInputError, FORMAT_NAMES, type AdaptedTrace, type AdapterFormat } from "./types";
import { adaptWhoWhen } from "./whowhen";

/**
 * The adapters behind one door: `adapt(format, input)` yields Baton traces
 * one at a time, so that a caller can validate and store them in batches
 * (MARBLE's JSONL is read line by line). The input is a path (a file, or a
 * ChatDev run folder) or, for in-memory sources, `{path, content}` where
 * the path only names the source. When the input is not in the asked
 * format, the error names the format expected (and the one it looks like).
 *
 *   file/folder -> detect (detect.ts) -> adapter (one module per format) -> traces -> ingest
 */

export { ADAPTER_FORMATS, AdapterInputError, FORMAT_NAMES } from "./types";
export type { AdaptedEvent, AdaptedTrace, AdapterFormat, Provenance } from "./types";
export { detectFormat } from "./detect";

export type SourceFormat = Exclude<AdapterFormat, "baton">;
export type AdaptInput = string | { path: string; content: string };

export async function* adapt(format: SourceFormat, input: AdaptInput): AsyncGenerator<AdaptedTrace> {
  const path = typeof input === "string" ? input : input.path;
  const content = typeof input === "string" ? undefined : input.content;
  const folder = content === undefined && (await stat(path)).isDirectory();
  if (format === "chatdev" && folder) {
    yield await readChatDevRun(path);
    return;
  }
  if (folder) throw new AdapterInputError(format, path, ["it is a folder"]);
  await refuseOtherFormat(format, path, content);
  if (format === "chatdev") {
    yield adaptChatDevRun({ path, logName: baseName(path), log: content ?? (await readFile(path, "utf8")) });
    return;
  }
  if (format === "marble") {
    yield* marbleRuns(path, content);
    return;
  }
  if (format === "otlp") {
    yield* adaptOtlpFile(path, content ?? (await readFile(path, "utf8")));
    return;
  }
  const raw = parseJson(format, path, content ?? (await readFile(path, "utf8")));
  if (format === "whowhen") yield adaptWhoWhen(raw, path);
  else if (format === "agentops") yield adaptAgentOps(raw, path);
  else {
    if (!Array.isArray(raw)) throw new AdapterInputError("taubench", path, ["$: expected an array of runs"]);
    for (let i = 0; i < raw.length; i++) yield adaptTauRun(raw[i], path, i);
  }
}

/** The format of a file or ChatDev run folder, by content; null when none matches. */
export async function detectPath(path: string): Promise<AdapterFormat | null> {
  if ((await stat(path)).isDirectory()) return (await chatDevLogIn(path)) ? "chatdev" : null;
  return detectFormat(path, await firstBytes(path));
}

/** A folder holding a ChatDev log is one run; returns the log's name. */
export async function chatDevLogIn(dir: string): Promise<string | null> {
  const entries = await readdir(dir, { withFileTypes: true });
  for (const e of entries) {
    if (e.isFile() && e.name.endsWith(".log") && detectFormat(e.name, await firstBytes(`${dir}/${e.name}`)) === "chatdev") return e.name;
  }
  return null;
}

async function refuseOtherFormat(format: SourceFormat, path: string, content: string | undefined): Promise<void> {
  const looks = detectFormat(path, content?.slice(0, FIRST_BYTES) ?? (await firstBytes(path)));
  if (looks !== null && looks !== format) throw new AdapterInputError(format, path, [`it looks like ${FORMAT_NAMES[looks]}`]);
}

async function firstBytes(path: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(FIRST_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, FIRST_BYTES, 0);
    // a cut inside a multi-byte character decodes as U+FFFD at the end, which detection ignores
    return buffer.subarray(0, bytesRead).toString("utf8");
  } finally {
    await handle.close();
  }
}

function parseJson(format: AdapterFormat, path: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AdapterInputError(format, path, [malformedJson(text, error)]);
  }
}

async function readChatDevRun(path: string): Promise<AdaptedTrace> {
  const logName = await chatDevLogIn(path);
  if (logName === null) throw new AdapterInputError("chatdev", path, ["the folder holds no ChatDev .log file"]);
  const files = (await readdir(path)).sort();
  const optional = async (name: string) => (files.includes(name) ? readFile(`${path}/${name}`, "utf8") : undefined);
  return adaptChatDevRun({
    path,
    logName,
    log: await readFile(`${path}/${logName}`, "utf8"),
    meta: await optional("meta.txt"),
    chatChainConfig: await optional("ChatChainConfig.json"),
    files,
  });
}

/**
 * MARBLE runs, one per line. A `.json` result file may hold one run, an
 * array, or (as E_COMMERCE_MISSING_INDEXES_RESULT.json does) JSON lines.
 */
async function* marbleRuns(path: string, content: string | undefined): AsyncGenerator<AdaptedTrace> {
  if (content === undefined && /\.json$/i.test(path)) content = await readFile(path, "utf8");
  if (content !== undefined) {
    const whole = tryParse(content);
    if (whole !== undefined) {
      const runs = Array.isArray(whole) ? whole : [whole];
      for (let i = 0; i < runs.length; i++) yield adaptMarbleRun(runs[i], path, i);
      return;
    }
  }
  const lines = content !== undefined ? content.split("\n") : createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  let index = 0;
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (line.trim() === "") continue;
    const raw = tryParse(line);
    if (raw === undefined) throw new AdapterInputError("marble", path, [`$[${index}]: malformed JSON on line ${lineNumber}`]);
    yield adaptMarbleRun(raw, path, index++);
  }
  if (index === 0) throw new AdapterInputError("marble", path, ["no runs"]);
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
