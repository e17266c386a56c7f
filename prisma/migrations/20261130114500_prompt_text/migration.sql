-- CreateTable
CREATE TABLE "PromptText" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "content" TEXT NOT NULL
);
