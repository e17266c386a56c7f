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

-- a stored model.called names a text as {"sha256": <hash>} inside messages[].blocks[] (run-log/events.ts); json, not
-- jsonb, which refuses a payload holding \u0000
INSERT INTO "PromptUse" ("runId", "hash")
    SELECT DISTINCT e."runId", b.value ->> 'sha256'
    FROM "Event" e
    CROSS JOIN LATERAL json_array_elements(e."payload"::json -> 'messages') m(value)
    CROSS JOIN LATERAL json_array_elements(CASE WHEN json_typeof(m.value -> 'blocks') = 'array' THEN m.value -> 'blocks' ELSE '[]'::json END) b(value)
    WHERE e."type" = 'model.called' AND json_typeof(b.value) = 'object' AND b.value ->> 'sha256' IS NOT NULL
ON CONFLICT DO NOTHING;
