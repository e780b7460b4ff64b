import type { StopReason, Topology } from "../../trace/types";
import type { ToolStep } from "../steps";

/**
 * Scripts for the four rollouts of scenario (d): one text-to-SQL task sampled
 * four times from the same policy checkpoint (a GRPO group). Two succeed and
 * two fail, with 1, 2, 3 (under a sub-lead) and 2 sub-agents.
 */

export const SQL_TASK =
  "Return the top 5 customers by 2024 revenue (paid orders only) from the shop database, with revenue in dollars, and verify the result.";

export interface WorkerPlan {
  agent: string;
  role: string;
  brief: string;
  steps: readonly ToolStep[];
  findings: string;
  /** The worker is spawned only after this worker (an agent name) has returned, and uses its result. */
  after?: string;
}

export interface RolloutPlan {
  index: number;
  succeed: boolean;
  topology: Topology;
  opening: string;
  /** Present in the hierarchical rollout: a sub-lead that runs the workers. */
  subLead?: { agent: string; brief: string; plan: string; summary: string };
  workers: readonly WorkerPlan[];
  answer: string;
  /** Present when the orchestrator decides to continue and check once more before stopping. */
  check?: { reason: string; step: ToolStep; answer: string };
  stop: { reason: StopReason; content: string };
}

const DESCRIBE_ORDERS: ToolStep = {
  tool: "sql.describe",
  input: 'sql.describe(table="orders")',
  output: "orders(id bigint pk, customer_id bigint fk -> customers.id, total_cents bigint, status text check in ('paid','pending','refunded'), created_at timestamptz)",
};
const DESCRIBE_CUSTOMERS: ToolStep = {
  tool: "sql.describe",
  input: 'sql.describe(table="customers")',
  output: "customers(id bigint pk, name text, country char(2), created_at timestamptz)",
};
const CORRECT_QUERY: ToolStep = {
  tool: "sql.run",
  input:
    "SELECT c.id, c.name, SUM(o.total_cents) / 100.0 AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.status = 'paid' AND o.created_at >= '2024-01-01' AND o.created_at < '2025-01-01' GROUP BY c.id, c.name ORDER BY revenue DESC LIMIT 5;",
  output: " id   | name            | revenue\n 1042 | Nordwind GmbH   | 48210.00\n 877  | Kasai Trading   | 41877.50\n 1310 | Alvarez & Hijos | 39002.25\n 95   | Brightline Ltd  | 35540.00\n 2203 | Oyelaran Foods  | 33918.75\n(5 rows, 38 ms)",
};
const QUERY_WITHOUT_STATUS: ToolStep = {
  tool: "sql.run",
  input:
    "SELECT c.name, SUM(o.total_cents) / 100.0 AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id WHERE EXTRACT(YEAR FROM o.created_at) = 2024 GROUP BY c.name ORDER BY revenue DESC LIMIT 5;",
  output: " name            | revenue\n Nordwind GmbH   | 52990.00\n Kasai Trading   | 44120.50\n Brightline Ltd  | 40310.00\n Alvarez & Hijos | 39002.25\n Oyelaran Foods  | 33918.75\n(5 rows, 41 ms)",
};

export const SQL_ROLLOUTS: readonly RolloutPlan[] = [
  {
    index: 1,
    succeed: true,
    topology: "centralized",
    opening: "Single well-scoped query; one query writer is enough. Spawning it with the schema hint 'orders, customers'.",
    workers: [
      {
        agent: "query_writer",
        role: "sql_writer",
        brief: "Write and run the top-5-customers-by-2024-revenue query; paid orders only.",
        steps: [DESCRIBE_ORDERS, CORRECT_QUERY],
        findings: "Query filters status = 'paid' and a half-open 2024 range, groups by customer id. Top 5 returned (Nordwind GmbH 48,210.00 first).",
      },
    ],
    answer: "Top 5 customers by 2024 paid revenue: Nordwind GmbH $48,210.00; Kasai Trading $41,877.50; Alvarez & Hijos $39,002.25; Brightline Ltd $35,540.00; Oyelaran Foods $33,918.75.",
    stop: { reason: "complete", content: "Answer produced and the query was run against the database. Done." },
  },
  {
    index: 2,
    succeed: true,
    topology: "centralized",
    opening: "Read the schema first, then write the query: spawning a schema reader and a query writer.",
    workers: [
      {
        agent: "schema_reader",
        role: "schema_analyst",
        brief: "Describe the tables needed for revenue per customer; note status values.",
        steps: [DESCRIBE_ORDERS, DESCRIBE_CUSTOMERS],
        findings: "Revenue lives in orders.total_cents (cents). status has 'paid','pending','refunded': only 'paid' counts. Join on orders.customer_id = customers.id.",
      },
      {
        agent: "query_writer",
        role: "sql_writer",
        brief: "Write and run the top-5 query; paid orders only, 2024 as a half-open range.",
        steps: [CORRECT_QUERY],
        findings: "Top 5 by paid 2024 revenue returned; Nordwind GmbH first with 48,210.00.",
      },
    ],
    answer: "Draft: Nordwind GmbH $48,210.00; Kasai Trading $41,877.50; Alvarez & Hijos $39,002.25; Brightline Ltd $35,540.00; Oyelaran Foods $33,918.75.",
    check: {
      reason: "Continue: cross-check the top customer against the invoices table before answering.",
      step: {
        tool: "sql.run",
        input: "SELECT SUM(amount_cents) / 100.0 FROM invoices WHERE customer_id = 1042 AND paid_at >= '2024-01-01' AND paid_at < '2025-01-01';",
        output: " ?column?\n 48210.00\n(1 row, 12 ms)",
      },
      answer: "Verified (invoices agree for customer 1042). Top 5 by 2024 paid revenue: Nordwind GmbH $48,210.00; Kasai Trading $41,877.50; Alvarez & Hijos $39,002.25; Brightline Ltd $35,540.00; Oyelaran Foods $33,918.75.",
    },
    stop: { reason: "quality_met", content: "Cross-check matches to the cent. Stopping." },
  },
  {
    index: 3,
    succeed: false,
    topology: "hierarchical",
    opening: "Delegate the whole SQL task to a data sub-lead who can split schema work, query writing and verification.",
    subLead: {
      agent: "data_lead",
      brief: "Own the top-5-customers task end to end; use sub-agents as needed.",
      plan: "Split: schema reader, query writer, verifier. Run them in parallel where possible.",
      summary: "Workers agree on the top 5 (Nordwind GmbH 52,990.00 first); verifier confirmed 5 rows.",
    },
    workers: [
      { agent: "schema_reader", role: "schema_analyst", brief: "Describe orders and customers.", steps: [DESCRIBE_CUSTOMERS, DESCRIBE_ORDERS], findings: "orders.total_cents holds revenue; join customers on id." },
      { agent: "query_writer", role: "sql_writer", brief: "Write the top-5 query for 2024.", steps: [QUERY_WITHOUT_STATUS], findings: "Top 5 by 2024 revenue returned; Nordwind GmbH first with 52,990.00." },
      {
        agent: "verifier",
        role: "verifier",
        brief: "Check the query writer's result: exactly 5 distinct customers.",
        after: "query_writer",
        steps: [{ tool: "sql.run", input: "SELECT COUNT(DISTINCT c.name) FROM (/* writer's query */) t;", output: " count\n 5\n(1 row, 44 ms)" }],
        findings: "5 distinct customers, no duplicates. Looks correct.",
      },
    ],
    answer: "Top 5 customers by 2024 revenue: Nordwind GmbH $52,990.00; Kasai Trading $44,120.50; Brightline Ltd $40,310.00; Alvarez & Hijos $39,002.25; Oyelaran Foods $33,918.75.",
    stop: { reason: "complete", content: "Sub-lead reports a verified answer. Done." },
  },
  {
    index: 4,
    succeed: false,
    topology: "centralized",
    opening: "Two independent query writers; take the answer they agree on.",
    workers: [
      {
        agent: "query_writer_a",
        role: "sql_writer",
        brief: "Write and run the top-5 query for 2024.",
        steps: [
          { tool: "sql.run", input: "SELECT c.name, SUM(o.total) AS revenue FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY 1 ORDER BY 2 DESC LIMIT 5;", output: 'ERROR:  column o.total does not exist\nLINE 1: SELECT c.name, SUM(o.total) AS revenue FROM orders o ...\nHINT:  Perhaps you meant to reference the column "o.total_cents".', status: "error" },
          QUERY_WITHOUT_STATUS,
        ],
        findings: "After fixing the column name: Nordwind GmbH 52,990.00 first.",
      },
      {
        agent: "query_writer_b",
        role: "sql_writer",
        brief: "Write and run the top-5 query for 2024, independently.",
        steps: [QUERY_WITHOUT_STATUS],
        findings: "Top 5 by 2024 revenue: Nordwind GmbH 52,990.00 first.",
      },
    ],
    answer: "Both writers agree. Top 5 customers by 2024 revenue: Nordwind GmbH $52,990.00; Kasai Trading $44,120.50; Brightline Ltd $40,310.00; Alvarez & Hijos $39,002.25; Oyelaran Foods $33,918.75.",
    stop: { reason: "max_turns", content: "Turn limit reached; returning the agreed answer without a cross-check." },
  },
];
