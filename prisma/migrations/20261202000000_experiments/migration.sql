-- Experiments (issue 28): versioned datasets of goals, experiments over them, and their cells (each an ordinary run).

CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "name" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "ownerId" TEXT,
    "latestVersion" INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX "Dataset_createdAt_idx" ON "Dataset"("createdAt");

CREATE TABLE "DatasetVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL,
    "itemCount" INTEGER NOT NULL,
    "items" TEXT NOT NULL,
    CONSTRAINT "DatasetVersion_datasetId_fkey" FOREIGN KEY ("datasetId") REFERENCES "Dataset" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "DatasetVersion_datasetId_version_key" ON "DatasetVersion"("datasetId", "version");

CREATE TABLE "Experiment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "name" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "datasetVersionId" TEXT NOT NULL,
    "configurations" TEXT NOT NULL,
    "repetitions" INTEGER NOT NULL,
    "costCapUsd" REAL,
    "estimatedCostUsd" REAL,
    "status" TEXT NOT NULL,
    "stopReason" TEXT,
    "finishedAt" DATETIME,
    "ownerId" TEXT,
    "importTag" TEXT,
    CONSTRAINT "Experiment_datasetVersionId_fkey" FOREIGN KEY ("datasetVersionId") REFERENCES "DatasetVersion" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
CREATE INDEX "Experiment_createdAt_idx" ON "Experiment"("createdAt");
CREATE INDEX "Experiment_status_idx" ON "Experiment"("status");

CREATE TABLE "ExperimentCell" (
    "experimentId" TEXT NOT NULL,
    "item" INTEGER NOT NULL,
    "configuration" INTEGER NOT NULL,
    "repetition" INTEGER NOT NULL,
    "runId" TEXT,

    PRIMARY KEY ("experimentId", "item", "configuration", "repetition"),
    CONSTRAINT "ExperimentCell_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ExperimentCell_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "ExperimentCell_runId_key" ON "ExperimentCell"("runId");
CREATE INDEX "ExperimentCell_experimentId_runId_idx" ON "ExperimentCell"("experimentId", "runId");
