// Splits a presentation screen whose text does not fit the window into
// pages (labScreens.paginate), measured in the DOM: the screen's area
// (`body`, overflow hidden, its height fixed by the window) must hold what
// is shown without overflowing. The items paged are the screen's blocks of
// text (paragraphs, list items, table rows, headings); charts, the sweep's
// controls and the lab's heading always stay. Items off the current page
// carry `data-present-off` (present.css hides them), and so does a list,
// table or section left with none of its items; a table keeps its caption
// and header on every page. Paged again whenever the screen, its content
// or the window changes.

import { useLayoutEffect, useState, type RefObject } from 'react';
import { paginate } from './labScreens';

/** Blocks of text that pages are made of. */
const ITEMS = 'p, li, tbody > tr, h3, h4';
/** What is never paged: the lab's heading, charts, the sweep's and the band's controls, the prediction field. */
const KEEP = '.lab-head, figure, .lab-run, .lab-band, .prediction';
const HEADINGS = new Set(['H3', 'H4']);
const OFF = 'data-present-off';

function shown(el: Element): boolean {
  return el.getClientRects().length > 0;
}

function clear(body: HTMLElement): void {
  for (const el of body.querySelectorAll(`[${OFF}]`)) el.removeAttribute(OFF);
}

interface Blocks {
  items: HTMLElement[];
  /** Elements holding items and nothing kept: hidden when none of their items is on the page. */
  groups: { el: HTMLElement; items: number[] }[];
}

function blocks(body: HTMLElement): Blocks {
  const keep = [...body.querySelectorAll<HTMLElement>(KEEP)].filter(shown);
  const items = [...body.querySelectorAll<HTMLElement>(ITEMS)].filter((el) => {
    if (!shown(el) || el.closest(KEEP)) return false;
    // Not inside another item (a paragraph in a list item goes with it).
    const outer = el.parentElement?.closest(ITEMS);
    return !outer || !body.contains(outer);
  });
  const byGroup = new Map<HTMLElement, number[]>();
  items.forEach((item, i) => {
    for (let a = item.parentElement; a && a !== body; a = a.parentElement) {
      if (keep.some((k) => a.contains(k))) break;
      const list = byGroup.get(a);
      if (list) list.push(i);
      else byGroup.set(a, [i]);
    }
  });
  return { items, groups: [...byGroup].map(([el, idx]) => ({ el, items: idx })) };
}

function show(b: Blocks, start: number, end: number): void {
  b.items.forEach((el, i) => el.toggleAttribute(OFF, i < start || i > end));
  for (const g of b.groups) g.el.toggleAttribute(OFF, !g.items.some((i) => i >= start && i <= end));
}

const fitsNow = (body: HTMLElement) => body.scrollHeight <= body.clientHeight + 1;

export interface Paging {
  /** The page shown (0-based). */
  page: number;
  pages: number;
}

/**
 * Pages the screen `screen` shown in `body`; `want` is the page asked for
 * (-1: the last). Returns the page shown and how many there are.
 */
export function useScreenPaging(body: RefObject<HTMLElement | null>, active: boolean, screen: string, want: number): Paging {
  const [paging, setPaging] = useState<Paging>({ page: 0, pages: 1 });
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    if (!active) {
      clear(el);
      setPaging((p) => (p.page === 0 && p.pages === 1 ? p : { page: 0, pages: 1 }));
      return;
    }
    const layout = () => {
      clear(el);
      const b = blocks(el);
      let starts = [0];
      if (b.items.length > 0 && !fitsNow(el)) {
        starts = paginate(
          b.items.length,
          (s, e) => {
            show(b, s, e);
            return fitsNow(el);
          },
          (i) => HEADINGS.has(b.items[i].tagName),
        );
      }
      const page = want < 0 ? starts.length - 1 : Math.min(want, starts.length - 1);
      if (starts.length > 1) show(b, starts[page], (starts[page + 1] ?? b.items.length) - 1);
      else clear(el);
      setPaging((p) => (p.page === page && p.pages === starts.length ? p : { page, pages: starts.length }));
    };
    layout();
    // Again when the content changes (results arriving, the lab loading) or the window does.
    let frame = 0;
    const later = () => {
      if (!frame) frame = requestAnimationFrame(() => {
        frame = 0;
        layout();
      });
    };
    const mo = new MutationObserver(later);
    mo.observe(el, { childList: true, characterData: true, subtree: true });
    const ro = new ResizeObserver(later);
    ro.observe(el);
    return () => {
      mo.disconnect();
      ro.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [body, active, screen, want]);
  return active ? paging : { page: 0, pages: 1 };
}
