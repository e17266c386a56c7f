// PrefixJoin gives exactly what joining afresh gives, whatever the previous list was, and renders only new lines.
import { describe, expect, it } from 'vitest';
import { createRng } from '../models/index';
import { PrefixJoin } from './prefix-join';

describe('PrefixJoin', () => {
  it('equals map(line).join over random lists that share, lose and change their prefixes', () => {
    const rng = createRng(7);
    const pool = Array.from({ length: 12 }, (_, i) => ({ text: `item ${i} <${i % 3}>` }));
    const line = (item: { text: string }, index: number) => `${index + 1}. ${item.text}`;
    const prefix = new PrefixJoin(line);
    let list: { text: string }[] = [];
    for (let step = 0; step < 500; step++) {
      const keep = rng.int(list.length + 1);
      list = [
        ...list.slice(0, keep),
        ...Array.from({ length: rng.int(4) }, () => pool[rng.int(pool.length)] as { text: string }),
      ];
      expect(prefix.join(list)).toBe(list.map(line).join('\n'));
    }
  });

  it('renders only the lines after the shared prefix', () => {
    const rendered: string[] = [];
    const prefix = new PrefixJoin((item: string) => {
      rendered.push(item);
      return item.toUpperCase();
    }, ' / ');
    const [a, b, c, d] = ['a', 'b', 'c', 'd'];
    expect(prefix.join([a, b, c])).toBe('A / B / C');
    expect(prefix.join([a, b, d])).toBe('A / B / D');
    expect(prefix.join([a])).toBe('A');
    expect(prefix.join([])).toBe('');
    expect(prefix.join([a, c])).toBe('A / C');
    expect(rendered).toEqual(['a', 'b', 'c', 'd', 'a', 'c']);
  });
});
