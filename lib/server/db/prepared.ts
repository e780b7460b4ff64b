import "server-only";
import { createHash } from "node:crypto";
import type { Prisma } from "@/lib/generated/prisma/client";
import { reader } from "./read";

/**
 * A read-only statement through the reader's pool as a named prepared
 * statement: parsed once per connection, and once PostgreSQL settles on its
 * generic plan (after five executions, when it costs no more than the
 * custom ones), planned once too. The name is a digest of the text, so a
 * shape of query (which filters, which judges) is one statement whatever
 * its values. For the aggregate scans (metrics, dashboard, decisions), whose
 * statements are long and whose filters on an index (a task, a group) read
 * a few rows: there the planning is most of the time.
 */
export async function readPrepared<R extends object>(sql: Prisma.Sql): Promise<R[]> {
  const text = sql.text;
  const { rows } = await (await reader()).pool.query<R>({ name: statementName(text), text, values: sql.values });
  return rows;
}

/** The names of the statements' texts seen lately (a text's digest once, not per request; at most NAMES_KEPT kept). */
const names = new Map<string, string>();
const NAMES_KEPT = 512;

function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `baton_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
    if (names.size >= NAMES_KEPT) names.delete(names.keys().next().value!);
    names.set(text, name);
  }
  return name;
}
