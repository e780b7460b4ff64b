import "server-only";
import type { QueueFilter, QueueInput } from "@/lib/api/queues";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Actor } from "../auth/access";
import { pool, prisma } from "../db/client";
import { ApiError } from "../errors";
import { reorderItems } from "./order";

/** Creates a queue and its items from the filter, in one transaction. */
export async function createQueue(actor: Actor, input: QueueInput) {
  const db = prisma();
  const project = await db.project.findUnique({ where: { name: input.project } });
  if (!project) throw new ApiError(400, "invalid_input", `no project "${input.project}"`, [{ path: "$.project", message: "unknown project" }]);
  const users = await db.user.findMany({ where: { email: { in: input.assignees } }, select: { id: true, email: true } });
  const missing = input.assignees.filter((e) => !users.some((u) => u.email === e));
  if (missing.length > 0) throw new ApiError(400, "invalid_input", "unknown annotators", missing.map((e) => ({ path: "$.assignees", message: `no user "${e}"` })));
  if (input.annotators_per_item > users.length) {
    // open local mode has one person: say how to get more, not only that there are too few
    const message = actor.via === "open"
      ? `open local mode has one annotator (you): for ${input.annotators_per_item} per item and agreement, create the first admin (the setup link printed at start), then add people on the admin page`
      : `at most ${users.length}`;
    throw new ApiError(400, "invalid_input", "more annotators per item than assignees", [{ path: "$.annotators_per_item", message }]);
  }
  await checkTraceIds(project.id, input.filter);
  if (await db.queue.findUnique({ where: { projectId_name: { projectId: project.id, name: input.name } } })) {
    throw new ApiError(409, "conflict", `a queue named "${input.name}" exists`, [{ path: "$.name", message: "taken" }]);
  }
  return db.$transaction(async (tx) => {
    const queue = await tx.queue.create({
      data: {
        projectId: project.id,
        name: input.name,
        filter: input.filter,
        families: input.families,
        annotatorsPerItem: input.annotators_per_item,
        blind: input.blind,
        reservationSeconds: input.reservation_seconds,
        itemOrder: input.order,
        createdById: actor.userId,
        assignees: { create: users.map((u) => ({ userId: u.id })) },
      },
    });
    const items = await tx.$executeRaw`
      INSERT INTO queue_items (queue_id, position, trace_key, event_id)
      SELECT ${queue.id}, (row_number() OVER (ORDER BY u.trace_db_id, u.seq))::int - 1, u.trace_key, u.event_id
      FROM (${unitsQuery(project.id, input.filter)}) u`;
    if (input.order !== "trace") await reorderItems(tx, queue.id, project.id, input.families, input.order);
    return { ...queue, items };
  });
}

/** Every id of `filter.trace_ids` must name a trace of the project: a 400 with one detail per unknown id (`$.filter.trace_ids[i]`). */
export async function checkTraceIds(projectId: number, filter: QueueFilter): Promise<void> {
  if (!filter.trace_ids) return;
  const { rows } = await pool().query<{ trace_id: string }>("SELECT trace_id FROM traces WHERE project_id = $1 AND trace_id = ANY($2::text[])", [projectId, filter.trace_ids]);
  const known = new Set(rows.map((r) => r.trace_id));
  const unknown = filter.trace_ids.flatMap((id, i) => (known.has(id) ? [] : [{ path: `$.filter.trace_ids[${i}]`, message: `no trace "${id.length > 80 ? `${id.slice(0, 80)}…` : id}" in this project` }]));
  if (unknown.length > 0) throw new ApiError(400, "invalid_input", `${unknown.length} trace id(s) not found`, unknown.slice(0, 100));
}

/** How many units a filter selects (capped by its limit, as creating would be). */
export async function countUnits(projectId: number, filter: QueueFilter): Promise<number> {
  const rows = await prisma().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM (${unitsQuery(projectId, filter)}) u`;
  return rows[0]?.n ?? 0;
}

/** The units a filter selects: (trace_key, event_id, trace_db_id, seq), oldest trace first, in event order. */
function unitsQuery(projectId: number, f: QueueFilter): Prisma.Sql {
  const traceWhere: Prisma.Sql[] = [Prisma.sql`t.project_id = ${projectId}`];
  if (f.trace_ids) traceWhere.push(Prisma.sql`t.trace_id = ANY(${f.trace_ids})`);
  if (f.system) traceWhere.push(Prisma.sql`t.system = ${f.system}`);
  if (f.task_id) traceWhere.push(Prisma.sql`t.task_id = ${f.task_id}`);
  if (f.group_id) traceWhere.push(Prisma.sql`t.group_id = ${f.group_id}`);
  if (f.e1 !== undefined) traceWhere.push(Prisma.sql`t.e1 = ${f.e1}`);
  if (f.verdict) traceWhere.push(Prisma.sql`t.verdict = ${f.verdict}::"Verdict"`);
  if (f.unit === "trace") {
    return Prisma.sql`SELECT t.trace_id AS trace_key, '' AS event_id, t.id AS trace_db_id, 0 AS seq
      FROM traces t WHERE ${Prisma.join(traceWhere, " AND ")} ORDER BY t.id LIMIT ${f.limit}`;
  }
  const eventWhere: Prisma.Sql[] = [];
  if (f.event_types) eventWhere.push(Prisma.sql`e.type::text = ANY(${f.event_types})`);
  if (f.decision) eventWhere.push(Prisma.sql`e.decision = ${f.decision}`);
  if (f.tool_result_error) {
    eventWhere.push(Prisma.sql`e.type = 'tool_call' AND EXISTS (
      SELECT 1 FROM edges d JOIN events r ON r.trace_id = d.trace_id AND r.seq = d.dst
      WHERE d.trace_id = e.trace_id AND d.src = e.seq AND d.type <> 'temporal' AND r.type = 'tool_result' AND r.status = 'error')`);
  }
  const where = Prisma.join([...traceWhere, ...eventWhere], " AND ");
  return Prisma.sql`SELECT t.trace_id AS trace_key, e.event_id, t.id AS trace_db_id, e.seq
    FROM traces t JOIN events e ON e.trace_id = t.id WHERE ${where} ORDER BY t.id, e.seq LIMIT ${f.limit}`;
}
