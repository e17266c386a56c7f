-- Full-text search over runs (the runs list's search box): goal, output and import tag in an FTS5 table kept in
-- sync with "Run" by triggers. Not a Prisma model (Prisma has no virtual tables): lib/server/repositories/runs.ts
-- queries it with $queryRaw, and migrate.test.ts's drift check compares models only, so it does not see it.
-- It keeps its own copy of the texts, found by "runId", rather than pointing at "Run"'s rowid: a table whose key
-- is TEXT may get new rowids from VACUUM, which would silently break an external-content index.
CREATE VIRTUAL TABLE "RunSearch" USING fts5(
    "runId" UNINDEXED,
    "goal",
    "output",
    "importTag",
    tokenize = 'unicode61 remove_diacritics 2'
);

-- Runs stored before this migration are searchable too.
INSERT INTO "RunSearch" ("runId", "goal", "output", "importTag")
SELECT "id", "goal", "output", "importTag" FROM "Run";

CREATE TRIGGER "Run_search_insert" AFTER INSERT ON "Run" BEGIN
    INSERT INTO "RunSearch" ("runId", "goal", "output", "importTag")
    VALUES (NEW."id", NEW."goal", NEW."output", NEW."importTag");
END;

-- Only when a searched column is written (a status or stats update leaves the index alone).
CREATE TRIGGER "Run_search_update" AFTER UPDATE OF "id", "goal", "output", "importTag" ON "Run" BEGIN
    DELETE FROM "RunSearch" WHERE "runId" = OLD."id";
    INSERT INTO "RunSearch" ("runId", "goal", "output", "importTag")
    VALUES (NEW."id", NEW."goal", NEW."output", NEW."importTag");
END;

CREATE TRIGGER "Run_search_delete" AFTER DELETE ON "Run" BEGIN
    DELETE FROM "RunSearch" WHERE "runId" = OLD."id";
END;
