-- AlterTable
ALTER TABLE "replay_runs" ADD COLUMN     "runner" TEXT,
ADD COLUMN     "runner_exit" INTEGER,
ADD COLUMN     "runner_output" JSONB,
ADD COLUMN     "runner_state" TEXT;
