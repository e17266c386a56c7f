-- CreateTable
CREATE TABLE "RunSnapshot" (
    "runId" TEXT NOT NULL PRIMARY KEY,
    "seq" INTEGER NOT NULL,
    "tree" TEXT NOT NULL,
    CONSTRAINT "RunSnapshot_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
