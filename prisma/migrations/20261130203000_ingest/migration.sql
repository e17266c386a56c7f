-- Attach your own search (issue 13): the program streaming an external run, and its stored items by client seq.

CREATE TABLE "IngestClient" (
    "runId" TEXT NOT NULL PRIMARY KEY,
    "lastClientSeq" INTEGER NOT NULL DEFAULT 0,
    "lastSeenAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "IngestClient_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "IngestItem" (
    "runId" TEXT NOT NULL,
    "clientSeq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,

    PRIMARY KEY ("runId", "clientSeq"),
    CONSTRAINT "IngestItem_runId_fkey" FOREIGN KEY ("runId") REFERENCES "IngestClient" ("runId") ON DELETE CASCADE ON UPDATE CASCADE
);
