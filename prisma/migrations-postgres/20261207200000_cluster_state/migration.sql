-- Cluster-wide state (issue 33): the sign-in throttle, the one-time setup code and the running imports move from one
-- process's memory into the database, so every instance on one database sees the same.

CREATE TABLE "SignInThrottle" (
    "email" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "windowStartedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "SignInThrottle_pkey" PRIMARY KEY ("email")
);
CREATE INDEX "SignInThrottle_windowStartedAt_idx" ON "SignInThrottle"("windowStartedAt");

CREATE TABLE "SetupCode" (
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SetupCode_pkey" PRIMARY KEY ("hash")
);

CREATE TABLE "ImportSlot" (
    "id" TEXT NOT NULL,
    "who" TEXT NOT NULL,
    "instanceId" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "ImportSlot_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "ImportSlot_who_key" ON "ImportSlot"("who");
