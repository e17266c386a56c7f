-- Cluster-wide state (issue 33): the sign-in throttle, the one-time setup code and the running imports move from one
-- process's memory into the database, so every instance on one database sees the same.

CREATE TABLE "SignInThrottle" (
    "email" TEXT NOT NULL PRIMARY KEY,
    "attempts" INTEGER NOT NULL,
    "windowStartedAt" DATETIME NOT NULL
);
CREATE INDEX "SignInThrottle_windowStartedAt_idx" ON "SignInThrottle"("windowStartedAt");

CREATE TABLE "SetupCode" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "ImportSlot" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "who" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL
);
CREATE UNIQUE INDEX "ImportSlot_who_key" ON "ImportSlot"("who");
