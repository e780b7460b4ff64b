-- AlterTable
ALTER TABLE "gateway_upstreams" ADD COLUMN     "tokenizer" TEXT;
