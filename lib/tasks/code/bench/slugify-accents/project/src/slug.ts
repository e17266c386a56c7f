/** URL slugs for article titles: lower-case ASCII words joined by dashes. */

/** "Crème Brûlée, at Home!" -> "creme-brulee-at-home". */
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `slug`, or `slug-2`, `slug-3`, ... when it is taken. */
export function uniqueSlug(title: string, taken: ReadonlySet<string>): string {
  const slug = slugify(title) || 'untitled';
  if (!taken.has(slug)) return slug;
  let n = 2;
  while (taken.has(`${slug}-${n}`)) n++;
  return `${slug}-${n}`;
}
