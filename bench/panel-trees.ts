import type { Page } from 'playwright-core';
import type { Context } from '../src/core/context.ts';
import { runOperation } from '../src/core/operation.ts';
import { createMenuItem } from '../src/menus/item-operations.ts';
import { createMenu } from '../src/menus/operations.ts';
import { createTaxonomy, createTerm } from '../src/taxonomies/operations.ts';
import { median } from './process.ts';

/**
 * The panel's tree editors in chromium (issue 33): opening a menu of 500 items and a taxonomy of
 * 2,000 terms (each a tenth at the top, nine under each) from their lists, from the click to every
 * row painted (budget 300 ms each).
 */
export interface TreeFigures {
  runs: number;
  menu: { items: number; openMs: number; targetMet: boolean };
  terms: { items: number; openMs: number; targetMet: boolean };
}

const openBudgetMs = 300;
const menuItems = 500;
const termCount = 2000;
const perParent = 9;

/** The menu `big` (custom links) and the taxonomy `subjects`, each a tenth at the top with nine under each. */
export async function seedTrees(ctx: Context): Promise<void> {
  await runOperation(createMenu, ctx, () => ({ name: 'big', label: 'Big menu' }));
  for (let n = 0; n < menuItems / (perParent + 1); n++) {
    const { item } = await runOperation(createMenuItem, ctx, () => ({ name: 'big', type: 'custom', label: `Section ${n}`, url: `/section-${n}` }));
    for (let m = 0; m < perParent; m++) await runOperation(createMenuItem, ctx, () => ({ name: 'big', type: 'custom', label: `Page ${n}.${m}`, url: `/section-${n}/page-${m}`, parentId: item.id }));
  }
  await runOperation(createTaxonomy, ctx, () => ({ name: 'subjects', label: 'Subjects', hierarchical: true, collections: [] }));
  for (let n = 0; n < termCount / (perParent + 1); n++) {
    const { item } = await runOperation(createTerm, ctx, () => ({ name: 'subjects', slug: `subject-${n}`, label: `Subject ${n}` }));
    for (let m = 0; m < perParent; m++) await runOperation(createTerm, ctx, () => ({ name: 'subjects', slug: `subject-${n}-${m}`, label: `Subject ${n}.${m}`, parentId: item.id }));
  }
}

/** Timed in the page, as panel-editor.ts does: from the click on the link to a frame with every row, the clock read when the frame's callback runs (its argument is when the frame was due, before any long task that delayed it). */
const openAndTime = (link: string, rows: number) => `new Promise((resolve) => {
  const link = [...document.querySelectorAll('a')].find((a) => a.textContent === ${JSON.stringify(link)});
  const clicked = performance.now();
  link.click();
  const check = () => {
    if (document.querySelectorAll('[role=treegrid] [role=row]').length >= ${rows}) resolve(performance.now() - clicked);
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})`;

async function timeToOpen(page: Page, listUrl: string, link: string, rows: number, runs: number): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    await page.goto(listUrl);
    await page.getByRole('link', { name: link, exact: true }).waitFor();
    samples.push(Number(await page.evaluate(openAndTime(link, rows))));
  }
  return median(samples);
}

export async function measureTrees(page: Page, origin: string, runs: number): Promise<TreeFigures> {
  const menuMs = await timeToOpen(page, `${origin}/_cms/admin/menus`, 'Big menu', menuItems, runs);
  const termsMs = await timeToOpen(page, `${origin}/_cms/admin/taxonomies`, 'Subjects', termCount, runs);
  return {
    runs,
    menu: { items: menuItems, openMs: menuMs, targetMet: menuMs <= openBudgetMs },
    terms: { items: termCount, openMs: termsMs, targetMet: termsMs <= openBudgetMs },
  };
}

export function printTrees(figures: TreeFigures): void {
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`  Opening a menu of ${figures.menu.items} items from the list of menus, until every row is painted (median of ${figures.runs}): ${figures.menu.openMs.toFixed(0)} ms (budget <= ${openBudgetMs} ms: ${met(figures.menu.targetMet)})`);
  console.log(`  Opening a taxonomy of ${figures.terms.items.toLocaleString('en')} terms from the list of taxonomies, until every row is painted (median of ${figures.runs}): ${figures.terms.openMs.toFixed(0)} ms (budget <= ${openBudgetMs} ms: ${met(figures.terms.targetMet)})`);
}
