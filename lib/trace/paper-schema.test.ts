import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EDGE_TYPES, EVENT_TYPES, FAMILIES, TOPOLOGIES } from "./types";
import { validateTrace } from "./validate";

/**
 * SPEC.md section 1: a file valid under the paper's trace_schema.json (with
 * unique ids, edges between existing events, no self-loop or causal cycle,
 * within the limits) imports unchanged. The example of the schema, and
 * generated variants that use every freedom the schema gives.
 */
const SCHEMA_DIR = fileURLToPath(new URL("../../../shared/trace-schema/", import.meta.url));

/** Extension names whose type Baton checks (a wrong type there is an error by SPEC.md), so generated extras avoid them. */
const EXTENSIONS = new Set(["t_end", "content", "tokens", "status", "decision", "reason", "rewards", "id", "t", "type", "agent", "role", "from", "to", "tool", "content_ref", "trusted"]);

/** A key named `__proto__` is refused with its path (validate.ts), so generated extras avoid it at every depth. */
const hasProtoKey = (v: unknown): boolean =>
  typeof v === "object" && v !== null && (Object.hasOwn(v, "__proto__") || Object.values(v).some(hasProtoKey));
const json = fc.jsonValue({ maxDepth: 3 }).filter((v) => !(typeof v === "number" && Math.abs(v) > 1e15) && !hasProtoKey(v));
const text = fc.string({ unit: "binary", maxLength: 30 });
/** A map key of generated rewards and metrics: any string but `__proto__` (refused with its path, as every such key is). */
const mapKey = (maxLength: number) => fc.string({ maxLength }).filter((k) => k !== "__proto__");
const limitedNumber = fc.double({ min: -1e15, max: 1e15, noNaN: true, noDefaultInfinity: true });
const nonNegative = fc.double({ min: 0, max: 1e15, noNaN: true, noDefaultInfinity: true });

const schemaValidTrace = fc
  .uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 12 })
  .chain((ids) =>
    fc.record({
      trace_id: fc.string({ minLength: 1, maxLength: 40 }),
      task_id: fc.string({ minLength: 1, maxLength: 40 }),
      system: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
      topology: fc.option(fc.constantFrom(...TOPOLOGIES), { nil: undefined }),
      events: fc.tuple(
        ...ids.map((id) =>
          fc.record(
            {
              id: fc.constant(id),
              t: nonNegative,
              type: fc.constantFrom(...EVENT_TYPES),
              agent: fc.string({ minLength: 1, maxLength: 10 }),
              role: fc.string({ maxLength: 10 }),
              from: text,
              to: text,
              tool: fc.string({ maxLength: 10 }),
              content_ref: text,
              trusted: fc.boolean(),
              // lenient extensions: any decision or reason string, any reward keys
              decision: fc.string({ maxLength: 10 }),
              reason: fc.string({ maxLength: 10 }),
              rewards: fc.dictionary(mapKey(8), fc.double({ min: -1, max: 1, noNaN: true })),
            },
            { requiredKeys: ["id", "t", "type", "agent"] },
          ),
        ),
      ),
      extras: fc.array(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !EXTENSIONS.has(k) && k !== "__proto__"), json, { maxKeys: 2 }), { minLength: ids.length, maxLength: ids.length }),
      // distinct ends (no self-loop); a one-event trace has no edges
      edges: ids.length < 2
        ? fc.constant([] as [number, number, (typeof EDGE_TYPES)[number]][])
        : fc.array(
            fc.tuple(fc.nat({ max: ids.length - 1 }), fc.nat({ max: ids.length - 2 }), fc.constantFrom(...EDGE_TYPES)).map(([a, k, type]): [number, number, (typeof EDGE_TYPES)[number]] => [a, k >= a ? k + 1 : k, type]),
            { maxLength: 20 },
          ),
      rewards: fc.dictionary(mapKey(10), limitedNumber, { maxKeys: 4 }),
      costs: fc.record({ tokens: nonNegative, wall_clock_s: nonNegative, tool_calls: nonNegative, messages: nonNegative }, { requiredKeys: ["tokens", "wall_clock_s"] }),
      metrics: fc.option(fc.dictionary(mapKey(10), limitedNumber, { maxKeys: 4 }), { nil: undefined }),
    }).map(({ events, extras, edges, system, topology, metrics, ...rest }) => ({
      ...rest,
      ...(system !== undefined && { system }),
      ...(topology !== undefined && { topology }),
      ...(metrics !== undefined && { metrics }),
      events: events.map((e, i) => ({ ...extras[i], ...e })),
      // causal edges go from a lower to a higher array index (acyclic); temporal ones anywhere
      edges: edges.map(([a, b, type]) => {
        const [src, dst] = type === "temporal" || a < b ? [a, b] : [b, a];
        return { src: ids[src]!, dst: ids[dst]!, type };
      }),
    })),
  );

describe("files valid under the paper's schema", () => {
  it("import the schema's own example unchanged", () => {
    const example: unknown = JSON.parse(readFileSync(`${SCHEMA_DIR}example_trace.json`, "utf8"));
    const result = validateTrace(example);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.trace.events.length).toBe((example as { events: unknown[] }).events.length);
  });

  it("import every generated schema-valid variant, keeping unknown properties and lenient values", () => {
    fc.assert(
      fc.property(schemaValidTrace, (raw) => {
        const result = validateTrace(structuredClone(raw));
        if (!result.ok) throw new Error(JSON.stringify(result.problems.slice(0, 3)));
        const familySet = new Set<string>(FAMILIES);
        raw.events.forEach((e, i) => {
          const got = result.trace.events[i]!;
          expect(got.id).toBe(e.id);
          if (e.decision !== undefined) expect(got.decision).toBe(e.decision);
          for (const key of Object.keys(e.rewards ?? {})) expect(familySet.has(key) || got.rewards?.[key] !== undefined).toBe(true);
        });
      }),
      { numRuns: 100 },
    );
  });
});
