-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "taskId" TEXT NOT NULL,
    "goal" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "modelLabel" TEXT NOT NULL,
    "modelSettings" TEXT,
    "config" TEXT NOT NULL,
    "seed" INTEGER,
    "status" TEXT NOT NULL,
    "finishReason" TEXT,
    "startedAt" DATETIME,
    "finishedAt" DATETIME,
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "stats" TEXT,
    "output" TEXT,
    "success" BOOLEAN,
    "verified" BOOLEAN,
    "bestScore" REAL,
    "cost" REAL NOT NULL DEFAULT 0,
    "exploredNodes" INTEGER NOT NULL DEFAULT 0,
    "totalNodes" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "importTag" TEXT,
    "parentRunId" TEXT,
    "parentNodeId" TEXT
);

-- CreateTable
CREATE TABLE "Event" (
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "ts" BIGINT NOT NULL,

    PRIMARY KEY ("runId", "seq"),
    CONSTRAINT "Event_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Node" (
    "runId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "parentId" TEXT,
    "depth" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "thought" TEXT,
    "composite" REAL,
    "cumulativeScore" REAL NOT NULL,
    "verified" BOOLEAN,
    "createdSeq" INTEGER NOT NULL,

    PRIMARY KEY ("runId", "nodeId"),
    CONSTRAINT "Node_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");

-- CreateIndex
CREATE INDEX "Run_status_createdAt_idx" ON "Run"("status", "createdAt");

-- CreateIndex
CREATE INDEX "Run_taskId_createdAt_idx" ON "Run"("taskId", "createdAt");

-- CreateIndex
CREATE INDEX "Node_runId_status_idx" ON "Node"("runId", "status");
