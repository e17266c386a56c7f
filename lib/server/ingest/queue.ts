/**
 * One queue per key: tasks for the same key run one after another, in the order given; other keys run freely. The
 * ingest API serializes every write of one run through it (a client's batches, a person's steering requests, the
 * sweeper's interruption), since each reads the stored end of the log and writes after it.
 * Not responsible for anything across instances: there the log's fence decides, and IngestRuns builds a write that
 * lost to another instance's again (service.ts `write`).
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
