-- Read-only links to one experiment (issue 28): its page and its cells' runs, for someone without an account.

CREATE TABLE "ExperimentShareLink" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "experimentId" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "revokedAt" DATETIME,
    CONSTRAINT "ExperimentShareLink_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "ExperimentShareLink_experimentId_idx" ON "ExperimentShareLink"("experimentId");
