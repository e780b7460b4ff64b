-- The stored pages are a cache (built again on open): the old rows are dropped rather than converted
DELETE FROM "graph_pages";

-- AlterTable
ALTER TABLE "graph_pages" DROP COLUMN "json",
ADD COLUMN     "gz" BYTEA NOT NULL;
