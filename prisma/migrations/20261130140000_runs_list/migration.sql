-- The runs list at scale (issue 10): filter by import tag, sum unpriced calls, and one meaning for bestScore.

-- Calls on a model with no price, kept beside "cost" so a filter's total can say what it leaves out.
ALTER TABLE "Run" ADD COLUMN "unpricedCalls" INTEGER NOT NULL DEFAULT 0;
UPDATE "Run" SET "unpricedCalls" = COALESCE(CAST(json_extract("stats", '$.unpricedCalls') AS INTEGER), 0)
WHERE "stats" IS NOT NULL AND json_valid("stats");

-- "My runs" (importTag IS NULL) and one import's runs, newest first, and the list of tags.
CREATE INDEX "Run_importTag_createdAt_idx" ON "Run"("importTag", "createdAt");

-- bestScore was a path total (a sum of scores from the root); it is now the best node's own score (0..1). Rows
-- written before are rewritten from the node projection: the completed node with the highest path total (the one
-- the engine picks as best), else none.
UPDATE "Run" SET "bestScore" = (
    SELECT n."composite" FROM "Node" n
    WHERE n."runId" = "Run"."id" AND n."status" = 'completed' AND n."parentId" IS NOT NULL
    ORDER BY n."cumulativeScore" DESC, n."createdSeq" ASC
    LIMIT 1
);
