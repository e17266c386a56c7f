-- Read-only links to one experiment (issue 28): its page and its cells' runs, for someone without an account.

CREATE TABLE "ExperimentShareLink" (
    "id" TEXT NOT NULL,
    "experimentId" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    CONSTRAINT "ExperimentShareLink_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ExperimentShareLink_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "ExperimentShareLink_experimentId_idx" ON "ExperimentShareLink"("experimentId");
