-- AlterTable
ALTER TABLE "model_calls" ADD COLUMN     "finish_reason" TEXT,
ADD COLUMN     "params" JSON,
ADD COLUMN     "response_logprobs" DOUBLE PRECISION[],
ADD COLUMN     "source" TEXT,
ADD COLUMN     "token_source" TEXT,
ADD COLUMN     "tools" JSON;
