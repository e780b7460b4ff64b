-- CreateTable
CREATE TABLE "blame_models" (
    "project_id" INTEGER NOT NULL,
    "method" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "trained_on" INTEGER NOT NULL,
    "trained_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "model" JSONB NOT NULL,

    CONSTRAINT "blame_models_pkey" PRIMARY KEY ("project_id","method")
);

-- CreateTable
CREATE TABLE "blame_evaluations" (
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "result" JSONB NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blame_evaluations_pkey" PRIMARY KEY ("key")
);

-- AddForeignKey
ALTER TABLE "blame_models" ADD CONSTRAINT "blame_models_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
