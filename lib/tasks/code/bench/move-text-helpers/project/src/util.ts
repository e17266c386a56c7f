/** String helpers for titles and cards. */

/** "hello world" -> "Hello world". */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `text` cut to at most `max` characters, "..." included, at a word boundary where there is one. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 3);
  const space = cut.lastIndexOf(' ');
  return `${space > 0 ? cut.slice(0, space) : cut}...`;
}
