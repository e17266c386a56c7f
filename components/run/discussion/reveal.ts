'use client';
// Brings an element of a drawer panel into view by scrolling the panel itself, never its frame. The browser's own
// scrollIntoView (and focus's scroll) also scrolls `overflow: hidden` ancestors, which shifts the whole run page's
// layout (its frame clips instead of scrolling, so nothing would scroll it back).
// Not responsible for which element is shown (the highlighted comment, the box the `c` key focuses).

/** Scrolls the nearest scrolling ancestor of `el` just enough to show it (its top, when it is taller). */
export function reveal(el: HTMLElement, margin = 12): void {
  let scroller = el.parentElement;
  while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowY)) scroller = scroller.parentElement;
  if (!scroller) return;
  const box = el.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  if (box.top < view.top + margin) scroller.scrollTop += box.top - view.top - margin;
  else if (box.bottom > view.bottom - margin)
    scroller.scrollTop += Math.min(box.bottom - view.bottom + margin, box.top - view.top - margin);
}

/** Focuses a text box without the browser's scroll, then reveals it within its panel. */
export function focusAndReveal(el: HTMLElement): void {
  el.focus({ preventScroll: true });
  reveal(el);
}
