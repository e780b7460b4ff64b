-- CreateTable
CREATE TABLE "project_tokenizers" (
    "project_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "tokenizer" TEXT NOT NULL,
    "config" JSONB NOT NULL,
    "chat_template" TEXT,
    "sha256" TEXT NOT NULL,
    "vocab_size" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_tokenizers_pkey" PRIMARY KEY ("project_id")
);

-- AddForeignKey
ALTER TABLE "project_tokenizers" ADD CONSTRAINT "project_tokenizers_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
