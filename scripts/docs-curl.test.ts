import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The docs' curl examples run as written: every route that takes a body
 * answers 415 to anything but its own media type (a form post, which is what
 * `curl -d` sends by default, never reaches it), so a curl example with a
 * body names its content type.
 */

const root = path.resolve(__dirname, "..");
const DOCS = [
  "README.md",
  ...readdirSync(path.join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`),
  ...["app", "components", "lib", "prisma", "public", "e2e", "scripts"].map((d) => `${d}/README.md`).filter((f) => existsSync(path.join(root, f))),
];

/** Each curl command of the file's shell blocks, continuation lines joined. */
function curlCommands(markdown: string): string[] {
  const out: string[] = [];
  for (const block of markdown.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const lines = block[1]!.replace(/\\\n/g, " ").split("\n");
    let open: string | null = null;
    for (const line of lines) {
      if (open !== null) {
        // a quoted body spread over lines: the command goes on until the quote closes
        open += ` ${line}`;
        if ((open.match(/'/g)?.length ?? 0) % 2 === 0) {
          out.push(open);
          open = null;
        }
        continue;
      }
      const at = line.search(/\bcurl\s/);
      if (at < 0) continue;
      const command = line.slice(at);
      if ((command.match(/'/g)?.length ?? 0) % 2 === 1) open = command;
      else out.push(command);
    }
    if (open !== null) out.push(open);
  }
  return out;
}

const sendsBody = (c: string) => /\s(-d|--data|--data-binary|--data-raw|-T|--upload-file)\s/.test(` ${c} `);
const namesType = (c: string) => /-H\s+['"]?content-type:/i.test(c) || /\s-F\s/.test(` ${c} `);

describe("the docs' curl examples", () => {
  it("finds commands across lines and quoted bodies", () => {
    const md = "```sh\ncurl -X POST x \\\n  -H 'content-type: application/json' \\\n  -d '{\"a\": 1}'\ncurl -X POST y -d '{\n  \"b\": 2}'\necho no\n```\n";
    expect(curlCommands(md)).toEqual([
      "curl -X POST x    -H 'content-type: application/json'    -d '{\"a\": 1}'",
      "curl -X POST y -d '{   \"b\": 2}'",
    ]);
    expect(curlCommands(md).map((c) => sendsBody(c) && !namesType(c))).toEqual([false, true]);
  });

  for (const file of DOCS) {
    it(`${file}: a command with a body names its content type`, () => {
      const missing = curlCommands(readFileSync(path.join(root, file), "utf8")).filter((c) => sendsBody(c) && !namesType(c));
      expect(missing).toEqual([]);
    });
  }
});
