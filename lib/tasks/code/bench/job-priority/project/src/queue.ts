/** The build server's job queue. */

export interface Job {
  id: string;
}

export class JobQueue {
  private jobs: Job[] = [];

  push(job: Job): void {
    this.jobs.push(job);
  }

  /** The next job to run: first in, first out. */
  next(): Job | undefined {
    return this.jobs.shift();
  }

  get size(): number {
    return this.jobs.length;
  }
}
