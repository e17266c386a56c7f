import { capitalize } from './util';

/** A page title: each word capitalized, except the short joining words after the first. */
export function titleCase(text: string): string {
  const small = new Set(['a', 'an', 'and', 'of', 'the', 'to']);
  return text
    .toLowerCase()
    .split(/\s+/)
    .map((word, i) => (i > 0 && small.has(word) ? word : capitalize(word)))
    .join(' ');
}
