import type { Page } from 'playwright-core';
import type { Context } from '../src/core/context.ts';
import { runOperation } from '../src/core/operation.ts';
import { createMenuItem } from '../src/menus/item-operations.ts';
import { createMenu } from '../src/menus/operations.ts';
import { createTaxonomy, createTerm } from '../src/taxonomies/operations.ts';
import { median } from './process.ts';

/**
 * The panel's tree editors in chromium (issue 33): opening a menu of 500 items and a taxonomy of
 * 2,000 terms five deep (seedTrees) from their lists, from the click to the
 * tree's first screen of rows painted (budget 300 ms each; each opens with its top level only, being
 * over 300 nodes (decisions/0064), and the tree is virtualized, so the rows out of view are not in the
 * document); and moving a term of that
 * taxonomy down with the toolbar, without a main-thread task over 50 ms (budget) from the click until
 * the server has stored the move and the tree shows it.
 */
export interface TreeFigures {
  runs: number;
  menu: { items: number; openMs: number; targetMet: boolean };
  terms: { items: number; openMs: number; targetMet: boolean };
  reorder: ReorderFigures;
}

interface ReorderFigures {
  items: number;
  /** From the click on "Move down" to a frame showing the term in its new place (medians). */
  shownMs: number;
  /** From the click to the server's "… is moved." shown. */
  storedMs: number;
  /** The longest main-thread task between the click and the move stored (the Long Tasks API; 0 when none was over 50 ms), the median of the runs' longest. */
  longestTaskMs: number;
  targetMet: boolean;
}

const openBudgetMs = 300;
const blockingBudgetMs = 50;
const menuItems = 500;
const perParent = 9;
const termCount = 2000;
const termDepth = 5;
const topTerms = 17;
const termsUnder = 3;

/**
 * The menu `big` (custom links: a tenth at the top, nine under each) and the taxonomy `subjects`, five
 * deep as the issue has it: 17 terms at the top, three under each, level by level until there are 2,000
 * (the fifth level partly filled). A term's label is its path of places: "Subject 3.0.2".
 */
export async function seedTrees(ctx: Context): Promise<void> {
  await runOperation(createMenu, ctx, () => ({ name: 'big', label: 'Big menu' }));
  for (let n = 0; n < menuItems / (perParent + 1); n++) {
    const { item } = await runOperation(createMenuItem, ctx, () => ({ name: 'big', type: 'custom', label: `Section ${n}`, url: `/section-${n}` }));
    for (let m = 0; m < perParent; m++) await runOperation(createMenuItem, ctx, () => ({ name: 'big', type: 'custom', label: `Page ${n}.${m}`, url: `/section-${n}/page-${m}`, parentId: item.id }));
  }
  await runOperation(createTaxonomy, ctx, () => ({ name: 'subjects', label: 'Subjects', hierarchical: true, collections: [] }));
  let level: { id: string | undefined; path: string }[] = [{ id: undefined, path: '' }];
  let created = 0;
  for (let depth = 0; depth < termDepth && created < termCount; depth++) {
    const next: typeof level = [];
    for (const parent of level) {
      for (let place = 0; place < (depth === 0 ? topTerms : termsUnder) && created < termCount; place++) {
        const path = parent.path === '' ? String(place) : `${parent.path}.${place}`;
        const { item } = await runOperation(createTerm, ctx, () => ({ name: 'subjects', slug: `subject-${path.replaceAll('.', '-')}`, label: `Subject ${path}`, ...(parent.id ? { parentId: parent.id } : {}) }));
        next.push({ id: item.id, path });
        created++;
      }
    }
    level = next;
  }
}

/** A top-level row by its place among its siblings (the tree's rows say it: aria-posinset). */
const topRow = (place: number) => `[role=treegrid] [role=row][aria-level="1"][aria-posinset="${place}"] .tree-node-label`;

/** How long an in-page wait waits before it gives up, saying what for: the bench cannot hang on a screen that never comes. */
const deadlineMs = 30_000;

/**
 * An in-page promise, given as the text of `page.evaluate`: `body` calls `settle(value)` once it sees
 * what it awaits, and `poll(check)` runs `check` in every frame until it returns true or the wait is
 * over; past the deadline the promise rejects with `awaited` in its message.
 */
const inPage = (awaited: string, body: string) => `new Promise((resolve, reject) => {
  let over = false;
  const deadline = setTimeout(() => {
    over = true;
    reject(new Error(${JSON.stringify(`not seen within ${deadlineMs / 1000} s: ${awaited}`)}));
  }, ${deadlineMs});
  const settle = (value) => {
    if (over) return;
    over = true;
    clearTimeout(deadline);
    resolve(value);
  };
  const poll = (check) => {
    const frame = () => {
      if (!over && !check()) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  };
  ${body}
})`;

/**
 * Timed in the page, as panel-editor.ts does: from the click on the link to a frame showing the tree,
 * its first row `first` (a large tree opens with its top level only, decisions/0064) and rows filling
 * its box down to its bottom (or the window's; the virtualizer leaves the rows out of view out of the
 * document). The clock is read when the frame's callback runs (its argument is when the frame was
 * due, before any long task that delayed it).
 */
const openAndTime = (link: string, first: string) =>
  inPage(
    `the tree opened from "${link}", its first row "${first}", rows down to its bottom`,
    `
  const link = [...document.querySelectorAll('a')].find((a) => a.textContent === ${JSON.stringify(link)});
  const clicked = performance.now();
  link.click();
  poll(() => {
    const tree = document.querySelector('[role=treegrid]');
    if (!tree || tree.querySelector(${JSON.stringify(topRow(1))})?.textContent !== ${JSON.stringify(first)}) return false;
    const box = tree.getBoundingClientRect();
    const bottoms = [...tree.querySelectorAll('[role=row]')].map((row) => row.getBoundingClientRect().bottom);
    if (Math.max(...bottoms) < Math.min(box.bottom, innerHeight) - 2) return false;
    settle(performance.now() - clicked);
    return true;
  });`,
  );

async function timeToOpen(page: Page, listUrl: string, link: string, first: string, runs: number): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    await page.goto(listUrl);
    await page.getByRole('link', { name: link, exact: true }).waitFor();
    samples.push(Number(await page.evaluate(openAndTime(link, first))));
  }
  return median(samples);
}

/**
 * In the page, the first term `label` selected: presses "Move down" and notes every long task from
 * then on (buffered, so none is missed while the observer starts; earlier ones are left out), the
 * frame that shows `label` second and `next` first, and when the server's "… is moved." shows; then a
 * frame more, for a task that frame ran.
 */
const moveDownAndTime = (label: string, next: string) =>
  inPage(
    `"${label}" moved below "${next}" and stored`,
    `
  const tasks = [];
  const button = [...document.querySelectorAll('[role=toolbar] button')].find((candidate) => candidate.textContent === 'Move down');
  const clicked = performance.now();
  new PerformanceObserver((list) => tasks.push(...list.getEntries().filter((entry) => entry.startTime >= clicked).map((entry) => entry.duration))).observe({ type: 'longtask', buffered: true });
  button.click();
  const labelAt = (selector) => document.querySelector(selector)?.textContent;
  let shownMs;
  poll(() => {
    if (shownMs === undefined && labelAt(${JSON.stringify(topRow(1))}) === ${JSON.stringify(next)} && labelAt(${JSON.stringify(topRow(2))}) === ${JSON.stringify(label)}) shownMs = performance.now() - clicked;
    if (shownMs === undefined || ![...document.querySelectorAll('[role=status]')].some((status) => status.textContent === ${JSON.stringify(`${label} is moved.`)})) return false;
    const storedMs = performance.now() - clicked;
    requestAnimationFrame(() => setTimeout(() => settle({ shownMs, storedMs, longestTaskMs: Math.max(0, ...tasks) }), 0));
    return true;
  });`,
  );

/** Opens the taxonomy, selects its first term with the mouse and moves it down with the toolbar, `runs` times. */
async function timeToReorder(page: Page, termsUrl: string, runs: number): Promise<ReorderFigures> {
  const samples: Omit<ReorderFigures, 'items' | 'targetMet'>[] = [];
  for (let run = 0; run < runs; run++) {
    await page.goto(termsUrl);
    const first = page.locator(topRow(1));
    const [label, next] = [(await first.textContent())!, (await page.locator(topRow(2)).textContent())!];
    await first.click();
    await page.getByRole('toolbar', { name: `Selected: ${label}` }).getByRole('button', { name: 'Move down' }).waitFor();
    samples.push((await page.evaluate(moveDownAndTime(label, next))) as Omit<ReorderFigures, 'items' | 'targetMet'>);
  }
  const longestTaskMs = median(samples.map((sample) => sample.longestTaskMs));
  return {
    items: termCount,
    shownMs: median(samples.map((sample) => sample.shownMs)),
    storedMs: median(samples.map((sample) => sample.storedMs)),
    longestTaskMs,
    targetMet: longestTaskMs <= blockingBudgetMs,
  };
}

export async function measureTrees(page: Page, origin: string, runs: number): Promise<TreeFigures> {
  const menuMs = await timeToOpen(page, `${origin}/_cms/admin/menus`, 'Big menu', 'Section 0', runs);
  const termsMs = await timeToOpen(page, `${origin}/_cms/admin/taxonomies`, 'Subjects', 'Subject 0', runs);
  const reorder = await timeToReorder(page, `${origin}/_cms/admin/taxonomies/subjects`, runs);
  return {
    runs,
    menu: { items: menuItems, openMs: menuMs, targetMet: menuMs <= openBudgetMs },
    terms: { items: termCount, openMs: termsMs, targetMet: termsMs <= openBudgetMs },
    reorder,
  };
}

export function printTrees(figures: TreeFigures): void {
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`  Opening a menu of ${figures.menu.items} items from the list of menus, until its first screen of rows is painted (median of ${figures.runs}): ${figures.menu.openMs.toFixed(0)} ms (budget <= ${openBudgetMs} ms: ${met(figures.menu.targetMet)})`);
  console.log(`  Opening a taxonomy of ${figures.terms.items.toLocaleString('en')} terms five deep from the list of taxonomies, until its first screen of rows is painted (median of ${figures.runs}): ${figures.terms.openMs.toFixed(0)} ms (budget <= ${openBudgetMs} ms: ${met(figures.terms.targetMet)})`);
  const { reorder } = figures;
  console.log(
    `  Moving a term of ${reorder.items.toLocaleString('en')} down with the toolbar (median of ${figures.runs}): shown in ${reorder.shownMs.toFixed(0)} ms, stored in ${reorder.storedMs.toFixed(0)} ms; longest task ${reorder.longestTaskMs.toFixed(0)} ms (budget: no task over ${blockingBudgetMs} ms: ${met(reorder.targetMet)})`,
  );
}
