-- PostgreSQL's schema as of the team server (issue 15): the same models as prisma/schema.prisma, in one step, since
-- no PostgreSQL database existed before. Later changes add a migration here AND one in prisma/migrations (SQLite).
-- Types as Prisma's postgresql provider maps them: TEXT, INTEGER, BIGINT, DOUBLE PRECISION, BOOLEAN, TIMESTAMP(3).

CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "taskId" TEXT NOT NULL,
    "goal" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "modelLabel" TEXT NOT NULL,
    "modelSettings" TEXT,
    "config" TEXT NOT NULL,
    "seed" INTEGER,
    "status" TEXT NOT NULL,
    "finishReason" TEXT,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "lastSeq" INTEGER NOT NULL DEFAULT 0,
    "stats" TEXT,
    "output" TEXT,
    "success" BOOLEAN,
    "verified" BOOLEAN,
    "bestScore" DOUBLE PRECISION,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "unpricedCalls" INTEGER NOT NULL DEFAULT 0,
    "exploredNodes" INTEGER NOT NULL DEFAULT 0,
    "totalNodes" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "importTag" TEXT,
    "parentRunId" TEXT,
    "parentNodeId" TEXT,
    "ownerId" TEXT,
    "importJobId" TEXT,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");
CREATE INDEX "Run_status_createdAt_idx" ON "Run"("status", "createdAt");
CREATE INDEX "Run_taskId_createdAt_idx" ON "Run"("taskId", "createdAt");
CREATE INDEX "Run_importTag_createdAt_idx" ON "Run"("importTag", "createdAt");
CREATE INDEX "Run_ownerId_createdAt_idx" ON "Run"("ownerId", "createdAt");
CREATE INDEX "Run_importJobId_idx" ON "Run"("importJobId");

CREATE TABLE "Event" (
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "ts" BIGINT NOT NULL,
    CONSTRAINT "Event_pkey" PRIMARY KEY ("runId", "seq"),
    CONSTRAINT "Event_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "Node" (
    "runId" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "parentId" TEXT,
    "depth" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "thought" TEXT,
    "composite" DOUBLE PRECISION,
    "cumulativeScore" DOUBLE PRECISION NOT NULL,
    "verified" BOOLEAN,
    "createdSeq" INTEGER NOT NULL,
    CONSTRAINT "Node_pkey" PRIMARY KEY ("runId", "nodeId"),
    CONSTRAINT "Node_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "Node_runId_status_idx" ON "Node"("runId", "status");

CREATE TABLE "RunSnapshot" (
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "tree" TEXT NOT NULL,
    "format" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "RunSnapshot_pkey" PRIMARY KEY ("runId"),
    CONSTRAINT "RunSnapshot_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "PromptText" (
    "hash" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    CONSTRAINT "PromptText_pkey" PRIMARY KEY ("hash")
);

CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabledAt" TIMESTAMP(3),
    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "Session_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ApiKey_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");
CREATE INDEX "ApiKey_userId_idx" ON "ApiKey"("userId");

CREATE TABLE "ShareLink" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "revokedAt" TIMESTAMP(3),
    "step" INTEGER,
    "nodeId" TEXT,
    "allowPrompts" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "ShareLink_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "ShareLink_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "ShareLink_runId_idx" ON "ShareLink"("runId");

CREATE TABLE "IngestClient" (
    "runId" TEXT NOT NULL,
    "lastClientSeq" INTEGER NOT NULL DEFAULT 0,
    "lastSeenAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "IngestClient_pkey" PRIMARY KEY ("runId"),
    CONSTRAINT "IngestClient_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE TABLE "IngestItem" (
    "runId" TEXT NOT NULL,
    "clientSeq" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    CONSTRAINT "IngestItem_pkey" PRIMARY KEY ("runId", "clientSeq"),
    CONSTRAINT "IngestItem_runId_fkey" FOREIGN KEY ("runId") REFERENCES "IngestClient"("runId") ON DELETE CASCADE ON UPDATE CASCADE
);
