/**
 * A process that builds a snapshot's shards (spawned by build-process.ts
 * under tsx, with a heap sized to the largest trace, and an IPC channel):
 * reads the snapshot whose id is the first argument, says it is ready, then
 * builds each shard the parent sends: says when its rows are staged (the
 * parent then sends the next, computed while this one is encoded and
 * written) and answers with the shard's result once written, until the
 * parent says it is done. A shard that fails is reported as an
 * error, and the child exits 1.
 */
import { closeDatabase } from "../db/client";
import { onPrimary } from "../db/read";
import { buildContext, stageShard } from "./build";
import type { ChildMessage, ParentMessage } from "./build-process";

const id = Number(process.argv[2]);
const send = (message: ChildMessage) => new Promise<void>((resolve, reject) => process.send!(message, undefined, undefined, (error) => (error ? reject(error) : resolve())));

async function main(): Promise<void> {
  const ctx = await buildContext(id);
  if (ctx === null) throw new Error(`snapshot ${id} is already ready`);
  // messages are handled one at a time: the parent sends the next shard only when this one's rows are staged
  let work = Promise.resolve();
  // the shard being encoded and written (one at most) while the next one's rows are computed
  let previous: Promise<void> = Promise.resolve();
  const finished = new Promise<void>((resolve, reject) => {
    process.on("message", (message: ParentMessage) => {
      work = work.then(async () => {
        if ("done" in message) {
          await previous;
          return resolve();
        }
        // tests: a shard that fails while the other processes build theirs
        if (process.env.BATON_DATASET_FAIL_SHARD === String(message.shard.index)) throw new Error(`stopped by the test at shard ${message.shard.index}`);
        const staged = await stageShard(ctx, message.shard);
        await previous;
        previous = staged.done.then((result) => send({ result }));
        previous.catch(() => {});
        await send({ staged: true });
      }).catch(reject);
    });
    // the parent went away: nothing more will come
    process.once("disconnect", () => reject(new Error("the parent process went away")));
  });
  await send({ ready: true });
  await finished;
}

onPrimary(main)
  .then(() => closeDatabase())
  .then(
    async () => {
      const usage = process.resourceUsage();
      await send({ usage: { rssMB: usage.maxRSS / 1024, cpuSeconds: (usage.userCPUTime + usage.systemCPUTime) / 1e6 } });
      process.exit(0);
    },
    async (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`[baton] snapshot ${id}:`, message);
      await send({ error: message }).catch(() => {});
      process.exit(1);
    },
  );
