-- Runs made from OpenTelemetry traces (issue 29): an external run keeps its trace's id, so the receiver finds the run
-- a trace's later spans belong to (one run per trace) and the runs list's search finds it by the id.
ALTER TABLE "IngestClient" ADD COLUMN "traceId" TEXT;
CREATE UNIQUE INDEX "IngestClient_traceId_key" ON "IngestClient"("traceId");
