-- Prompt texts swept once nothing names them (issue 33): PromptUse says which runs' events name which texts (written
-- with the events, gone with the run), PromptText.usedAt when a write last named one. SQLite cannot add a column
-- with a non-constant default, so PromptText is rebuilt; the texts stored so far count as used now (unix ms, as the
-- adapter stores DateTime), and the uses of the events stored so far are read from their payloads.

CREATE TABLE "new_PromptText" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "content" TEXT NOT NULL,
    "usedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_PromptText" ("hash", "content", "usedAt")
    SELECT "hash", "content", CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) FROM "PromptText";
DROP TABLE "PromptText";
ALTER TABLE "new_PromptText" RENAME TO "PromptText";

CREATE TABLE "PromptUse" (
    "runId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    PRIMARY KEY ("runId", "hash"),
    CONSTRAINT "PromptUse_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "PromptUse_hash_idx" ON "PromptUse"("hash");

-- a stored model.called names a text as {"sha256": <hash>} inside messages[].blocks[] (run-log/events.ts)
INSERT OR IGNORE INTO "PromptUse" ("runId", "hash")
    SELECT DISTINCT e."runId", j."value"
    FROM "Event" e, json_tree(e."payload", '$.messages') j
    WHERE e."type" = 'model.called' AND j."key" = 'sha256' AND j."type" = 'text';
