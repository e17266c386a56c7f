/**
 * Reads another node process's heap from outside, through the inspector protocol (the process started with
 * `--inspect=127.0.0.1:<port>`): a full garbage collection, the heap's used size, and a heap snapshot written to a
 * file. bench:server uses it on the production server it starts, so the server's code carries no test hook; and
 * /proc/<pid>/status for the resident set (VmRSS) and its high-water mark (VmHWM), which the kernel keeps.
 * Needs a WebSocket client: node 22 has one built in, node 20 behind --experimental-websocket (package.json's
 * bench:server passes it). Not responsible for starting the process or for deciding what to measure.
 */
import { readFileSync, writeFileSync } from 'node:fs';

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

export class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<string, (params: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (message: MessageEvent) => {
      const data = JSON.parse(String(message.data)) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
        method?: string;
        params?: unknown;
      };
      if (data.id !== undefined) {
        const waiting = this.pending.get(data.id);
        this.pending.delete(data.id);
        if (data.error) waiting?.reject(new Error(data.error.message));
        else waiting?.resolve(data.result);
      } else if (data.method) this.listeners.get(data.method)?.(data.params);
    });
  }

  /** Connects to the inspector listening on 127.0.0.1:`port` (the process's first target). */
  static async connect(port: number): Promise<Inspector> {
    if (typeof WebSocket === 'undefined') {
      throw new Error('no WebSocket in this node: run with --experimental-websocket (node 20) or node 22');
    }
    const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
      webSocketDebuggerUrl: string;
    }[];
    const url = targets[0]?.webSocketDebuggerUrl;
    if (!url) throw new Error(`no inspector target on port ${port}`);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`cannot open ${url}`)), { once: true });
    });
    return new Inspector(socket);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** The heap's used bytes after full collections (twice: the first one's finalizers can free more). */
  async heapAfterGc(): Promise<number> {
    await this.send('HeapProfiler.collectGarbage');
    await this.send('HeapProfiler.collectGarbage');
    const { usedSize } = await this.send<{ usedSize: number }>('Runtime.getHeapUsage');
    return usedSize;
  }

  /** Writes a heap snapshot of the process to `file` (for Chrome DevTools' Memory tab, or a script). */
  async writeHeapSnapshot(file: string): Promise<void> {
    const chunks: string[] = [];
    this.listeners.set('HeapProfiler.addHeapSnapshotChunk', (params) => {
      chunks.push((params as { chunk: string }).chunk);
    });
    await this.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    this.listeners.delete('HeapProfiler.addHeapSnapshotChunk');
    writeFileSync(file, chunks.join(''));
  }

  close(): void {
    this.socket.close();
  }
}

/** The process's resident set now and its high-water mark, in bytes, as the kernel reports them. */
export function residentMemory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
