-- CreateTable
CREATE TABLE "dataset_row_sets" (
    "dataset_id" INTEGER NOT NULL,
    "shard" INTEGER NOT NULL,
    "keys" TEXT[],
    "hashes" TEXT[],

    CONSTRAINT "dataset_row_sets_pkey" PRIMARY KEY ("dataset_id","shard")
);

-- AddForeignKey
ALTER TABLE "dataset_row_sets" ADD CONSTRAINT "dataset_row_sets_dataset_id_fkey" FOREIGN KEY ("dataset_id") REFERENCES "datasets"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- the keys and hashes of existing snapshots, one set each (a diff against them stays exact)
INSERT INTO "dataset_row_sets" ("dataset_id", "shard", "keys", "hashes")
SELECT "dataset_id", 0, array_agg("key" ORDER BY "key"), array_agg("hash" ORDER BY "key") FROM "dataset_rows" GROUP BY "dataset_id";

-- DropForeignKey
ALTER TABLE "dataset_rows" DROP CONSTRAINT "dataset_rows_dataset_id_fkey";

-- DropTable
DROP TABLE "dataset_rows";
