-- CreateTable
CREATE TABLE "RunSnapshot" (
    "runId" TEXT NOT NULL PRIMARY KEY,
    "seq" INTEGER NOT NULL,
    "tree" TEXT NOT NULL,
    "format" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "RunSnapshot_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
