-- Full-text search over runs (the runs list's search box) on PostgreSQL: what SQLite's FTS5 "RunSearch" does
-- (prisma/migrations/20261130110000_runs_search), with the same query semantics: every word required, the last one
-- a prefix, the user's text never operators (lib/server/repositories/runs.ts).
-- Words are cut and folded here, by one function, for the stored document AND for the query, so both sides always
-- agree whatever the database's locale: NFD then the combining marks of Latin letters dropped (diacritics folded, as
-- FTS5's remove_diacritics), lower-cased, split at whitespace, punctuation and symbols (FTS5's unicode61 splits at everything
-- that is not a letter or a digit). The `simple` text-search parser is not used: it keeps "4.5", "a-b" or
-- "x@y.z" as single words where FTS5 splits them, so a search would find different runs on the two backends.
-- Not a Prisma model (a tsvector has no Prisma type); migrate-postgres.test.ts's drift check leaves it out.

CREATE FUNCTION "arborist_search_words"(input TEXT) RETURNS TEXT[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT COALESCE(array_agg(word ORDER BY n), '{}')
  FROM regexp_split_to_table(
    lower(
      -- normalize() needs a UTF8 database; any other keeps its accents. Decomposed, the marks on Latin letters are
      -- dropped (only those, as FTS5's remove_diacritics: a Greek or Cyrillic accent stays), then composed again so
      -- that "ελληνικα" is no prefix of "ελληνικά" here either
      CASE WHEN current_setting('server_encoding') = 'UTF8'
        THEN normalize(regexp_replace(normalize(COALESCE(input, ''), NFD), '(?<=[A-Za-z])[\u0300-\u036f]+', '', 'g'), NFC)
        ELSE COALESCE(input, '') END),
    -- separators by code point (a regex class like [[:alnum:]] would follow the locale): controls, ASCII and
    -- Latin-1 punctuation and symbols, general punctuation to the symbol and arrow blocks, CJK punctuation,
    -- fullwidth punctuation, emoji
    '[\s\u0000-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u00bf\u00d7\u00f7\u2000-\u2bff\u2e00-\u2e7f\u3000-\u303f\ufe10-\ufe6f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\U0001f000-\U0001faff]+'
  ) WITH ORDINALITY AS t(word, n)
  -- a lexeme may not exceed 2 kB; a 200-character "word" (base64, a hash) is nothing anyone types anyway
  WHERE length(word) BETWEEN 1 AND 200
$fn$;

-- A run's searchable text as lexemes: the distinct words of goal, output and import tag, capped so that a huge output
-- can never exceed a tsvector's 1 MB (the insert of the run would fail) — 20,000 distinct words is far more than a
-- search needs.
CREATE FUNCTION "arborist_search_document"(goal TEXT, output TEXT, tag TEXT) RETURNS TSVECTOR
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT array_to_tsvector(COALESCE((
    SELECT array_agg(word) FROM (
      SELECT DISTINCT word FROM unnest("arborist_search_words"(concat_ws(' ', goal, output, tag))) AS w(word)
      LIMIT 20000
    ) d
  ), '{}'))
$fn$;

-- A search box's words (already cut to at most 12 by runs.ts) as a tsquery: every word required, the last one a
-- prefix. Built from lexemes, quoted, never parsed as query syntax: the words can hold no quote or backslash (they are
-- separators), and they are escaped anyway. NULL (matches nothing) when no word is left.
CREATE FUNCTION "arborist_search_query"(input TEXT) RETURNS TSQUERY
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT string_agg(
      '''' || replace(replace(word, '\', '\\'), '''', '''''') || '''' || CASE WHEN n = total THEN ':*' ELSE '' END,
      ' & ' ORDER BY n)::tsquery
  FROM (
    SELECT word, n, count(*) OVER () AS total
    FROM unnest("arborist_search_words"(input)) WITH ORDINALITY AS w(word, n)
  ) words
$fn$;

CREATE TABLE "RunSearch" (
    "runId" TEXT NOT NULL,
    "document" TSVECTOR NOT NULL,
    CONSTRAINT "RunSearch_pkey" PRIMARY KEY ("runId"),
    -- a deleted run takes its row along; an id change follows
    CONSTRAINT "RunSearch_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "RunSearch_document_idx" ON "RunSearch" USING GIN ("document");

CREATE FUNCTION "arborist_run_search_sync"() RETURNS TRIGGER LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO "RunSearch" ("runId", "document")
  VALUES (NEW."id", "arborist_search_document"(NEW."goal", NEW."output", NEW."importTag"))
  ON CONFLICT ("runId") DO UPDATE SET "document" = excluded."document";
  RETURN NULL;
END
$fn$;

CREATE TRIGGER "Run_search_insert" AFTER INSERT ON "Run"
FOR EACH ROW EXECUTE FUNCTION "arborist_run_search_sync"();

-- Only when a searched column is written (a status, lease or stats update leaves the index alone).
CREATE TRIGGER "Run_search_update" AFTER UPDATE OF "goal", "output", "importTag" ON "Run"
FOR EACH ROW EXECUTE FUNCTION "arborist_run_search_sync"();

-- Runs stored before this migration are searchable too.
INSERT INTO "RunSearch" ("runId", "document")
SELECT "id", "arborist_search_document"("goal", "output", "importTag") FROM "Run";
