import { describe, expect, it } from 'vitest';
import { followUrl, markSent, queryToSend, startSearchText, typeText } from './search-text';

describe("the runs search box's text against the URL", () => {
  it('a URL catching up with an earlier search keeps the keys typed since (Enter before the URL moved)', () => {
    let box = startSearchText('');
    box = typeText(box, 'ab');
    box = markSent(box, 'ab'); // the pause
    box = typeText(box, 'abc ');
    box = markSent(box, 'abc'); // Enter, before the URL says 'ab'
    box = followUrl(box, 'ab');
    expect(box.text).toBe('abc ');
    box = followUrl(box, 'abc');
    expect(box.text).toBe('abc ');
    expect(box.sent).toEqual([]);
  });

  it('a URL change the box did not send (Clear filters, back) replaces the text', () => {
    let box = startSearchText('');
    box = markSent(typeText(box, 'ab'), 'ab');
    box = typeText(followUrl(box, 'ab'), 'abx');
    box = followUrl(box, '');
    expect(box).toEqual(startSearchText(''));
    expect(followUrl(box, 'shared').text).toBe('shared');
  });

  it('a refetch (the URL unchanged) leaves the box as it is', () => {
    const box = typeText(startSearchText('ab'), 'abc');
    expect(followUrl(box, 'ab')).toBe(box);
  });

  it('sends the trimmed text unless the URL already says it or it is on its way', () => {
    const box = typeText(startSearchText('ab'), ' abc ');
    expect(queryToSend(box)).toBe('abc');
    expect(queryToSend(markSent(box, 'abc'))).toBeNull();
    expect(queryToSend(typeText(box, 'ab '))).toBeNull();
  });
});
