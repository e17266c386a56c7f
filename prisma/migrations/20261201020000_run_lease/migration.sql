-- The run lease of the team server (issue 15): which instance executes a run and until when. SQLite has one process
-- and never sets them; the columns are here so both backends keep one schema.
ALTER TABLE "Run" ADD COLUMN "leaseOwner" TEXT;
ALTER TABLE "Run" ADD COLUMN "leaseExpiresAt" DATETIME;
