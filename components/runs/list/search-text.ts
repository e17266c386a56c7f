/**
 * The runs search box's text against the URL's `q`, as pure steps. The URL may change under the box (Clear filters,
 * back/forward): then the box shows what it says. But the URL also catches up, one replace at a time, with searches
 * the box itself sent; those must not overwrite keys typed since. One remembered search was not enough: after a
 * pause sent "ab" and Enter sent "abc", the URL's "ab" arriving replaced the box's "abc ". So the box keeps every
 * search on its way, in order, and a URL that says one of them only drops it and those before it.
 * A refetch leaves the URL, and so the box, as it is. Not responsible for when to send (the debounce) or the URL.
 */

export interface SearchText {
  /** What the box shows: what was typed, or what the URL says after a change the box did not send. */
  text: string;
  /** The URL's `q` the box last followed. */
  shown: string;
  /** Searches sent and not yet in the URL, oldest first. */
  sent: readonly string[];
}

export function startSearchText(q: string): SearchText {
  return { text: q, shown: q, sent: [] };
}

export function typeText(box: SearchText, text: string): SearchText {
  return text === box.text ? box : { ...box, text };
}

export function markSent(box: SearchText, q: string): SearchText {
  return { ...box, sent: [...box.sent, q] };
}

/** The box after the URL says `q`: the same box when the URL did not change (a refetch, another filter). */
export function followUrl(box: SearchText, q: string): SearchText {
  if (q === box.shown) return box;
  const at = box.sent.indexOf(q);
  if (at === -1) return startSearchText(q);
  return { ...box, shown: q, sent: box.sent.slice(at + 1) };
}

/** The search to send (the trimmed text), or null when the URL says it or will once the last search sent arrives. */
export function queryToSend(box: SearchText): string | null {
  const q = box.text.trim();
  return q === (box.sent.at(-1) ?? box.shown) ? null : q;
}
