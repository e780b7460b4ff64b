-- AlterTable: decision and reason keep any string (baton-spec-2, SPEC.md section 1);
-- converted in place so that stored values are kept
ALTER TABLE "events" ALTER COLUMN "decision" TYPE TEXT USING "decision"::text,
ALTER COLUMN "reason" TYPE TEXT USING "reason"::text;

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "imported" BOOLEAN NOT NULL DEFAULT false;

-- DropEnum
DROP TYPE "Decision";
