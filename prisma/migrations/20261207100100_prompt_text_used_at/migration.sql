-- The prompt-text sweep (run-log/events.ts sweepPromptTexts) finds old texts by this index alone: a scan of the table
-- would read every text's content (on SQLite usedAt is stored after it), on every instance every ten minutes.
CREATE INDEX "PromptText_usedAt_hash_idx" ON "PromptText"("usedAt", "hash");
