-- DropIndex
DROP INDEX "annotations_trace_key_family_idx";
