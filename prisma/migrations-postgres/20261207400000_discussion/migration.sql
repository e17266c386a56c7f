-- Comments and labels on nodes (issue 34): what people say about a run, stored beside it and never in its log.
-- A reply names its thread's first by a foreign key checked at the statement's end (NO ACTION): a run's cascade takes
-- a thread whole, and a reply racing its first's deletion is refused rather than left naming nothing.

CREATE TABLE "Comment" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "nodeId" TEXT,
    "replyTo" TEXT,
    "text" TEXT NOT NULL,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "authorId" TEXT,
    "authorName" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "editedAt" TIMESTAMP(3),
    CONSTRAINT "Comment_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Comment_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Comment_replyTo_fkey" FOREIGN KEY ("replyTo") REFERENCES "Comment"("id") ON DELETE NO ACTION ON UPDATE NO ACTION
);
CREATE INDEX "Comment_runId_createdAt_idx" ON "Comment"("runId", "createdAt");
CREATE INDEX "Comment_replyTo_idx" ON "Comment"("replyTo");

CREATE TABLE "Label" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "note" TEXT,
    "authorId" TEXT,
    "authorName" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Label_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Label_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Label_runId_nodeId_label_key" ON "Label"("runId", "nodeId", "label");
CREATE INDEX "Label_label_idx" ON "Label"("label");
