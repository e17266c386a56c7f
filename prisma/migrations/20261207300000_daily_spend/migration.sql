-- Budgets that hold under concurrency (issue 33): each model call of a team member's run holds its estimate against
-- the person's day before it is made and adds its cost when it settles, in the database, so runs started together,
-- on any instance, cannot each spend the whole remainder.

CREATE TABLE "DailySpend" (
    "ownerId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "usd" REAL NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("ownerId", "day")
);

CREATE TABLE "SpendHold" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "usd" REAL NOT NULL,
    "tokens" INTEGER NOT NULL,
    "expiresAt" DATETIME NOT NULL
);
CREATE INDEX "SpendHold_ownerId_day_idx" ON "SpendHold"("ownerId", "day");
