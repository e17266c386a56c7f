-- Prompt texts swept once nothing names them (issue 33): PromptUse says which runs' events name which texts (written
-- with the events, gone with the run), PromptText.usedAt when a write last named one (the texts stored so far count
-- as used now); the uses of the events stored so far are read from their payloads.

ALTER TABLE "PromptText" ADD COLUMN "usedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

CREATE TABLE "PromptUse" (
    "runId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    CONSTRAINT "PromptUse_pkey" PRIMARY KEY ("runId", "hash"),
    CONSTRAINT "PromptUse_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "PromptUse_hash_idx" ON "PromptUse"("hash");

-- a stored model.called names a text as {"sha256":"<64 hex>"} inside messages[].blocks[] (run-log/events.ts, written
-- by JSON.stringify): matched in the payload's text, not parsed, since PostgreSQL's JSON functions refuse a payload
-- holding \u0000; inside a JSON string its quotes would be escaped, so only that object matches
INSERT INTO "PromptUse" ("runId", "hash")
    SELECT DISTINCT e."runId", m[1]
    FROM "Event" e
    CROSS JOIN LATERAL regexp_matches(e."payload", '\{"sha256":"([0-9a-f]{64})"\}', 'g') m
    WHERE e."type" = 'model.called'
ON CONFLICT DO NOTHING;
