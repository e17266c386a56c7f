/**
 * PrefixJoin: joins the lines of a list, reusing the text of the previous call's list for the longest prefix the two
 * share (items compared by identity). The engine renders text for a search path on every step (the scratchpad, a
 * prompt's "steps so far"), and successive steps' paths mostly share their first nodes: with this, a step costs
 * the lines that changed rather than the whole depth.
 * `line(item, index)` must be a pure function of the item object and its index: that is what makes reusing the old
 * text the same as joining afresh. A list passed to join() must not be changed afterwards (it is kept to compare).
 * Not responsible for what the lines say (scratchpad.ts, prompts.ts).
 */
export class PrefixJoin<T> {
  private items: readonly T[] = [];
  /** ends[i]: the length of the text through item i. */
  private ends: number[] = [];
  private text = '';

  constructor(
    private readonly line: (item: T, index: number) => string,
    private readonly separator = '\n',
  ) {}

  /** The items' lines joined with the separator: exactly items.map(line).join(separator). */
  join(items: readonly T[]): string {
    const previous = this.items;
    const limit = Math.min(items.length, previous.length);
    let same = 0;
    while (same < limit && items[same] === previous[same]) same++;
    let text = same > 0 ? this.text.slice(0, this.ends[same - 1]) : '';
    const ends = this.ends.slice(0, same);
    for (let i = same; i < items.length; i++) {
      text += (i > 0 ? this.separator : '') + this.line(items[i] as T, i);
      ends.push(text.length);
    }
    this.items = items;
    this.ends = ends;
    this.text = text;
    return text;
  }
}
