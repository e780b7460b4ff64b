import { Template } from "@huggingface/jinja";
import { Tokenizer } from "@huggingface/tokenizers";
import type { CallMessage } from "../trace/calls";
import type { RecordedCall } from "./call";

/**
 * Token ids from a project's own Hugging Face tokenizer (docs/gateway.md
 * "Token ids from a project's tokenizer"): the `tokenizer.json` and
 * `tokenizer_config.json` of the model the server runs, with its chat
 * template. The prompt is the template rendered over the messages and tools
 * as sent with `add_generation_prompt` (what vLLM's chat endpoint feeds the
 * model); the response is what the same template writes for the reply
 * after that prompt, up to and including the end-of-turn token (the
 * config's `eos_token`). Messages go to the template as vLLM passes them:
 * tool call arguments parsed from their JSON text into objects, text parts
 * joined into one string. A call the template cannot render the same way
 * (image parts, a prompt the rendered conversation does not start with)
 * gets no ids rather than a guess.
 */

/** What an admin uploads: the two files of a model's repository, and a chat template when the config has none. */
export interface TokenizerFiles {
  tokenizer: Record<string, unknown>;
  config: Record<string, unknown>;
  /** overrides the config's `chat_template` */
  chatTemplate?: string | null;
}

type TemplateMessage = Record<string, unknown>;

/** A special token of the config as text: a string, or an AddedToken object's `content`. */
function tokenText(v: unknown): string | null {
  if (typeof v === "string") return v;
  if (typeof v === "object" && v !== null && typeof (v as { content?: unknown }).content === "string") return (v as { content: string }).content;
  return null;
}

/** The config's chat template: a string, or a list of named ones (the `tool_use` one when tools are offered, else `default`). */
function templateSources(files: TokenizerFiles): { plain: string; tools: string } | null {
  if (typeof files.chatTemplate === "string" && files.chatTemplate.length > 0) return { plain: files.chatTemplate, tools: files.chatTemplate };
  const raw = files.config.chat_template;
  if (typeof raw === "string" && raw.length > 0) return { plain: raw, tools: raw };
  if (Array.isArray(raw)) {
    const named = new Map<string, string>();
    for (const t of raw as unknown[]) {
      const { name, template } = (typeof t === "object" && t !== null ? t : {}) as { name?: unknown; template?: unknown };
      if (typeof name === "string" && typeof template === "string") named.set(name, template);
    }
    const plain = named.get("default");
    if (plain === undefined) return null;
    return { plain, tools: named.get("tool_use") ?? plain };
  }
  return null;
}

/** A file the library cannot read: which part, and the library's own message. */
export class TokenizerFileError extends Error {
  constructor(
    readonly part: "tokenizer" | "chat_template",
    message: string,
  ) {
    super(message);
  }
}

function attempt<T>(part: TokenizerFileError["part"], make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw new TokenizerFileError(part, (error as Error).message);
  }
}

export class ChatTokenizer {
  private readonly tokenizer: Tokenizer;
  private readonly plain: Template;
  private readonly withTools: Template;
  private readonly specials: Record<string, string | null>;
  /** the end-of-turn token the response ends with (null: the response runs to the end of what the template writes) */
  readonly eos: string | null;

  /** Throws a TokenizerFileError on a tokenizer, config or template it cannot read. */
  constructor(files: TokenizerFiles) {
    const sources = templateSources(files);
    if (sources === null) throw new TokenizerFileError("chat_template", "no chat template: the config has no chat_template and none was given");
    this.tokenizer = attempt("tokenizer", () => new Tokenizer(files.tokenizer, files.config));
    this.plain = attempt("chat_template", () => new Template(sources.plain));
    this.withTools = sources.tools === sources.plain ? this.plain : attempt("chat_template", () => new Template(sources.tools));
    this.specials = {
      bos_token: tokenText(files.config.bos_token),
      eos_token: tokenText(files.config.eos_token),
      pad_token: tokenText(files.config.pad_token),
      unk_token: tokenText(files.config.unk_token),
    };
    this.eos = this.specials.eos_token ?? null;
  }

  /** The template's text for a conversation. */
  render(messages: readonly TemplateMessage[], tools: readonly unknown[] | undefined, addGenerationPrompt: boolean): string {
    const template = tools !== undefined && tools.length > 0 ? this.withTools : this.plain;
    return template.render({
      messages,
      ...(tools !== undefined && tools.length > 0 && { tools }),
      add_generation_prompt: addGenerationPrompt,
      ...this.specials,
    });
  }

  /** Ids of text the template wrote: special tokens are in the text already, none are added. */
  encode(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  decode(ids: readonly number[]): string {
    return this.tokenizer.decode([...ids], { skip_special_tokens: false });
  }
}

/** A message as chat templates read it (as vLLM hands it over), or null when it holds a part a text template cannot render. */
export function templateMessage(m: CallMessage): TemplateMessage | null {
  let content: string | null;
  if (typeof m.content === "string" || m.content === null) content = m.content;
  else {
    const texts: string[] = [];
    for (const part of m.content) {
      if (part.type !== "text" && part.type !== "input_text" && part.type !== "output_text") return null;
      if (typeof part.text !== "string") return null;
      texts.push(part.text);
    }
    content = texts.join("\n");
  }
  const out: TemplateMessage = { role: m.role, content: content ?? "" };
  if (m.tool_calls !== undefined && m.tool_calls.length > 0) {
    out.tool_calls = m.tool_calls.map((tc) => ({
      ...(tc.id !== undefined && { id: tc.id }),
      type: "function",
      function: { name: tc.name, arguments: parsedArguments(tc.arguments) },
    }));
  }
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  if (typeof m.name === "string") out.name = m.name;
  return out;
}

/** JSON-object argument text as an object (templates write it with `tojson`); anything else as it came. */
function parsedArguments(args: string | Record<string, unknown>): unknown {
  if (typeof args !== "string") return args;
  try {
    const parsed: unknown = JSON.parse(args);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : args;
  } catch {
    return args;
  }
}

/** The prompt and response ids of a call the server gave none for; the call unchanged when the template cannot render it. */
export function templatedCall(call: RecordedCall, tok: ChatTokenizer): RecordedCall {
  if (call.prompt_token_ids !== undefined || call.response_token_ids !== undefined) return call;
  const messages: TemplateMessage[] = [];
  for (const m of call.input) {
    const tm = templateMessage(m);
    if (tm === null) return call;
    messages.push(tm);
  }
  const replyMessage: CallMessage = typeof call.output === "string" ? { role: "assistant", content: call.output } : call.output;
  const reply = templateMessage({ ...replyMessage, role: "assistant" });
  if (reply === null) return call;
  let prompt: string, whole: string;
  try {
    prompt = tok.render(messages, call.tools, true);
    whole = tok.render([...messages, reply], call.tools, false);
  } catch {
    // a template that raises on this conversation (some refuse roles or orders they were not written for)
    return call;
  }
  if (!whole.startsWith(prompt)) return call;
  let response = whole.slice(prompt.length);
  if (tok.eos !== null) {
    const end = response.lastIndexOf(tok.eos);
    if (end >= 0) response = response.slice(0, end + tok.eos.length);
  }
  return { ...call, prompt_token_ids: tok.encode(prompt), response_token_ids: tok.encode(response), token_source: "tokenizer" };
}
