-- AlterTable
ALTER TABLE "queues" ADD COLUMN     "item_order" TEXT NOT NULL DEFAULT 'trace';
