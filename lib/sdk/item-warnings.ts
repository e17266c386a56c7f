/**
 * The warnings about single items (one the SDK could not encode, one it converted, one the server refused): each
 * gets its own line, naming the item and why, because "3 items dropped" in stats() tells a program's author nothing
 * about which call to fix. A search gone wrong can make thousands of them, so at most `limit` lines are said per
 * `windowMs`; what was held back is summed up in one line when the window ends (or the run does).
 * Not responsible for the warnings about the run as a whole (unreachable, overflow, closed: run.ts says each kind
 * once), nor for the words of each line (run.ts).
 */
import { later } from './timers';

/**
 * What a warning is about. Said once per run until it clears: unreachable, overflow, refused, closed, resequenced,
 * unsent. Said per item (rate-limited): invalid (the server refused it), unsendable (JSON cannot carry one of its
 * values; not sent), converted (a value was sent in another form, e.g. a BigInt beyond 2^53 as a string).
 */
export type WarningKind =
  'unreachable' | 'overflow' | 'invalid' | 'unsendable' | 'converted' | 'refused' | 'closed' | 'resequenced' | 'unsent';

export class ItemWarnings {
  private said = 0;
  private held = 0;
  private windowStart = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly emit: (kind: WarningKind, message: string) => void,
    private readonly limit = 10,
    private readonly windowMs = 10_000,
  ) {}

  say(kind: WarningKind, message: string): void {
    const now = Date.now();
    if (now - this.windowStart >= this.windowMs) {
      this.summarize();
      this.windowStart = now;
      this.said = 0;
    }
    if (this.said < this.limit) {
      this.said++;
      this.emit(kind, message);
      return;
    }
    this.held++;
    this.timer ??= later(this.windowStart + this.windowMs - now, () => {
      this.timer = null;
      this.summarize();
    });
  }

  /** Says how many lines were held back, if any (at the window's end, or when the run closes). */
  summarize(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.held === 0) return;
    const held = this.held;
    this.held = 0;
    this.emit('invalid', `... and ${held} more refusals (not each said; see stats().droppedBy)`);
  }
}
