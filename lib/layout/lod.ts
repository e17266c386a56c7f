/**
 * Semantic zoom: which representation the canvas draws at a zoom level. Text is either readable (at least
 * READABLE_PX on screen) or not drawn, so each level starts where its smallest text reaches that size:
 * - card: the full node card, whose smallest text is CARD_SMALLEST_FONT flow pixels;
 * - pill: a compact box (status colour, score bar, a few words in PILL_FONT flow pixels);
 * - shape: no DOM at all, one canvas draws each item as a coloured box whose fill shows its score.
 * Pure; the fonts here are the ones app/globals.css gives .tnode and .tpill (keep them together).
 */
export type Level = 'card' | 'pill' | 'shape';

export const READABLE_PX = 10;
/** The smallest text on a full card (its marks), in flow pixels. */
export const CARD_SMALLEST_FONT = 10.5;
/** The pill's text, in flow pixels. */
export const PILL_FONT = 30;

export const CARD_MIN_ZOOM = READABLE_PX / CARD_SMALLEST_FONT;
export const PILL_MIN_ZOOM = READABLE_PX / PILL_FONT;
/** The zoom to show one node at: the smallest one where its card is readable, rounded up. */
export const READABLE_ZOOM = 1;

export function levelOf(zoom: number): Level {
  if (zoom >= CARD_MIN_ZOOM - 1e-9) return 'card';
  if (zoom >= PILL_MIN_ZOOM - 1e-9) return 'pill';
  return 'shape';
}
