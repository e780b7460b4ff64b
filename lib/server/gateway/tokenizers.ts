import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import type { ProjectTokenizer, ProjectTokenizerInput } from "@/lib/api/gateway";
import { ChatTokenizer, TokenizerFileError, type TokenizerFiles } from "@/lib/gateway/chat-template";
import { pool, transaction } from "../db/client";
import { stored } from "../db/stored";
import { ApiError, invalid, notFound } from "../errors";

/**
 * A project's Hugging Face tokenizer (docs/gateway.md "Token ids from a
 * project's tokenizer"): stored as uploaded, checked before it is stored
 * (the library reads it and the template renders a conversation with a tool
 * call and its result), loaded once per process and version.
 */

interface TokenizerRow {
  project: string;
  name: string;
  vocab_size: number;
  has_template: boolean;
  sha256: string;
  updated_at: Date;
}

const toApi = (r: TokenizerRow): ProjectTokenizer => ({
  project: r.project, name: r.name, vocab_size: r.vocab_size, chat_template: r.has_template ? "uploaded" : "config", sha256: r.sha256, updated_at: r.updated_at.toISOString(),
});

/** A conversation every agent template should render: a system prompt, a question, a tool call, its result and an answer. */
const PROBE = {
  messages: [
    { role: "system", content: "s" },
    { role: "user", content: "u" },
    { role: "assistant", content: "", tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: {} } }] },
    { role: "tool", tool_call_id: "c", content: "r" },
    { role: "assistant", content: "a" },
  ],
  tools: [{ type: "function", function: { name: "f", description: "d", parameters: { type: "object", properties: {} } } }],
};

/** The files read by the library, or a 400 naming the part it could not use. */
function checked(files: TokenizerFiles): ChatTokenizer {
  const templatePath = files.chatTemplate ? "$.chat_template" : "$.tokenizer_config.chat_template";
  let tok: ChatTokenizer;
  try {
    tok = new ChatTokenizer(files);
  } catch (error) {
    if (!(error instanceof TokenizerFileError)) throw error;
    const path = error.part === "tokenizer" ? "$.tokenizer" : templatePath;
    throw invalid([{ path, message: `cannot be read: ${error.message}` }], "the tokenizer cannot be used");
  }
  let text: string;
  try {
    text = tok.render(PROBE.messages, PROBE.tools, true);
  } catch (error) {
    throw invalid([{ path: templatePath, message: `does not render a conversation with a tool call: ${(error as Error).message}` }], "the chat template cannot be used");
  }
  try {
    tok.encode(text);
  } catch (error) {
    throw invalid([{ path: "$.tokenizer", message: `cannot encode text: ${(error as Error).message}` }], "the tokenizer cannot be used");
  }
  return tok;
}

/** Distinct token ids of the model's vocabulary and the added tokens (some tokenizers list added tokens in both). */
function vocabSize(tokenizer: Record<string, unknown>): number {
  const ids = new Set<number>();
  const vocab = (tokenizer.model as { vocab?: unknown } | undefined)?.vocab;
  // BPE and WordPiece: token -> id; Unigram: [token, score] pairs, the id being the position
  if (Array.isArray(vocab)) vocab.forEach((_, i) => ids.add(i));
  else if (typeof vocab === "object" && vocab !== null) for (const id of Object.values(vocab)) if (typeof id === "number") ids.add(id);
  if (Array.isArray(tokenizer.added_tokens)) {
    for (const t of tokenizer.added_tokens as unknown[]) {
      const id = (typeof t === "object" && t !== null ? t : {}) as { id?: unknown };
      if (typeof id.id === "number") ids.add(id.id);
    }
  }
  return ids.size;
}

const SELECT = `SELECT p.name AS project, t.name, t.vocab_size, t.chat_template IS NOT NULL AS has_template, t.sha256, t.updated_at
  FROM projects p JOIN project_tokenizers t ON t.project_id = p.id WHERE p.name = $1`;

/** Every project's tokenizer (the admin page), by project name. */
export async function listTokenizers(): Promise<ProjectTokenizer[]> {
  const { rows } = await pool().query<TokenizerRow>(
    `SELECT p.name AS project, t.name, t.vocab_size, t.chat_template IS NOT NULL AS has_template, t.sha256, t.updated_at
     FROM project_tokenizers t JOIN projects p ON p.id = t.project_id ORDER BY p.name`,
  );
  return rows.map(toApi);
}

async function projectId(project: string): Promise<number> {
  const { rows } = await pool().query<{ id: number }>("SELECT id FROM projects WHERE name = $1", [project]);
  if (!rows[0]) throw notFound(`project "${project}"`);
  return rows[0].id;
}

export async function getTokenizer(project: string): Promise<ProjectTokenizer | null> {
  await projectId(project);
  const { rows } = await pool().query<TokenizerRow>(SELECT, [project]);
  return rows[0] ? toApi(rows[0]) : null;
}

export async function putTokenizer(project: string, input: ProjectTokenizerInput): Promise<ProjectTokenizer> {
  const id = await projectId(project);
  checked({ tokenizer: input.tokenizer, config: input.tokenizer_config, chatTemplate: input.chat_template });
  const tokenizerText = JSON.stringify(input.tokenizer);
  const configText = JSON.stringify(input.tokenizer_config);
  const sha256 = createHash("sha256").update(tokenizerText).update("\0").update(configText).update("\0").update(input.chat_template ?? "").digest("hex");
  await pool().query(
    `INSERT INTO project_tokenizers (project_id, name, tokenizer, config, chat_template, sha256, vocab_size, updated_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, now())
     ON CONFLICT (project_id) DO UPDATE SET name = EXCLUDED.name, tokenizer = EXCLUDED.tokenizer, config = EXCLUDED.config,
       chat_template = EXCLUDED.chat_template, sha256 = EXCLUDED.sha256, vocab_size = EXCLUDED.vocab_size, updated_at = now()`,
    [id, input.name, tokenizerText, configText, input.chat_template, sha256, vocabSize(input.tokenizer)],
  );
  return (await getTokenizer(project))!;
}

/** Removes it; refused (409) while the project's upstream takes its ids from it. */
export async function deleteTokenizer(project: string): Promise<void> {
  const id = await projectId(project);
  await transaction(async (client) => {
    const { rows } = await client.query<{ tokenizer: string | null }>("SELECT tokenizer FROM gateway_upstreams WHERE project_id = $1 FOR SHARE", [id]);
    if (rows[0]?.tokenizer === "project") {
      throw new ApiError(409, "conflict", `the gateway of "${project}" takes its token ids from this tokenizer: set its tokenizer to another or null first (PUT /api/projects/${project}/gateway)`);
    }
    await client.query("DELETE FROM project_tokenizers WHERE project_id = $1", [id]);
  });
}

/** Whether the project has one (an upstream may name `project` only then). */
export async function hasTokenizer(projectIdValue: number): Promise<boolean> {
  const { rows } = await pool().query("SELECT 1 FROM project_tokenizers WHERE project_id = $1", [projectIdValue]);
  return rows.length > 0;
}

/** Loaded tokenizers by version: a few models at a time, each read once per process. */
const jsonObject = z.record(z.string(), z.unknown());
const loaded = new Map<string, Promise<ChatTokenizer | null>>();
const KEEP = 4;

/** The project's tokenizer as it is now, or null when it has none (or it can no longer be read, said once in the log). */
export async function projectChatTokenizer(projectIdValue: number): Promise<ChatTokenizer | null> {
  const { rows } = await pool().query<{ sha256: string }>("SELECT sha256 FROM project_tokenizers WHERE project_id = $1", [projectIdValue]);
  const sha = rows[0]?.sha256;
  if (sha === undefined) return null;
  let tok = loaded.get(sha);
  if (tok === undefined) {
    tok = pool()
      .query<{ tokenizer: string; config: unknown; chat_template: string | null }>(
        "SELECT tokenizer, config, chat_template FROM project_tokenizers WHERE project_id = $1 AND sha256 = $2",
        [projectIdValue, sha],
      )
      .then(({ rows: [row] }) => {
        if (!row) return null;
        const what = `the tokenizer of project ${projectIdValue}`;
        return new ChatTokenizer({ tokenizer: stored(jsonObject, JSON.parse(row.tokenizer), what), config: stored(jsonObject, row.config, `${what}: config`), chatTemplate: row.chat_template });
      })
      .catch((error: Error) => {
        console.error(`[baton] gateway: the tokenizer of project ${projectIdValue} cannot be loaded, its calls get no token ids:`, error.message);
        return null;
      });
    loaded.set(sha, tok);
    while (loaded.size > KEEP) loaded.delete(loaded.keys().next().value!);
  }
  return tok;
}
