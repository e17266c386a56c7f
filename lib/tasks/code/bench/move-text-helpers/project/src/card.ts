import { capitalize, truncate } from './util';

export interface Card {
  heading: string;
  summary: string;
}

/** A card for the feed: a capitalized heading and a summary of at most 40 characters. */
export function toCard(heading: string, body: string): Card {
  return { heading: capitalize(heading.trim()), summary: truncate(body.trim(), 40) };
}
