-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "grader_fields" JSONB NOT NULL DEFAULT '[]';
