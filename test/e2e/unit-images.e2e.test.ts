/**
 * Unit pictures in real Chromium against the embedded runtime. demo-admin opens a unit in the unit
 * editor, finds its pictures in the object description (none yet, "0 of 5"), uploads a PNG drawn
 * in the browser and sees it shown from the runtime's signed file route (under the page's CSP),
 * is refused a renamed text file and a file over 1 MB with their messages, and
 * deletes the picture after a confirmation (Swedish and Norwegian: languages.e2e.test.ts). Every screen is checked
 * with axe and photographed at 390 and 1280 px (with SCREENSHOTS=1) into test-results/unit-images/.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../shared/schemas/unit-images';
import { getUnitItem } from '../../functions/domain/unit/reads';
import { demoImei, demoUsers } from '../../infra/local/seed';
import { unitImagesEn } from '../../shared/i18n/features/unit-images/en';
import { type App, checkAndShoot, logInAt, openPage, poll, SHOTS_DIR, startBrowserApp, stopBrowserApp } from '../support/browser';

let app: App;
let browser: Browser;

const SHOTS = join(SHOTS_DIR, 'unit-images');
const IMEI = demoImei(0);
const text = (template: string, vars: Record<string, string | number>) => template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name]));

beforeAll(async () => {
  ({ app, browser } = await startBrowserApp());
});

afterAll(async () => {
  await stopBrowserApp({ app, browser });
});

/** A 320x240 PNG drawn on a canvas in the page: a picture worth looking at in the screenshots. */
async function drawnPng(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 240;
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
    const sky = ctx.createLinearGradient(0, 0, 0, 240);
    sky.addColorStop(0, '#7fb8e6');
    sky.addColorStop(1, '#1f5f8b');
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, 320, 240);
    ctx.fillStyle = '#f4f1e8';
    ctx.beginPath();
    ctx.moveTo(60, 150);
    ctx.lineTo(260, 150);
    ctx.lineTo(230, 190);
    ctx.lineTo(90, 190);
    ctx.closePath();
    ctx.fill();
    ctx.fillStyle = '#c0392b';
    ctx.fillRect(150, 70, 8, 80);
    return canvas.toDataURL('image/png').split(',')[1] as string;
  });
  return Buffer.from(base64, 'base64');
}


/** Opens the unit editor's pictures section (an accordion item of its own) once the editor is drawn. */
async function openPictures(page: Page): Promise<void> {
  await page.getByRole('button', { name: unitImagesEn.unitImagesTitle, exact: true }).click();
  await page.getByTestId('unit-images').waitFor({ state: 'visible' });
}

const fileInput = (page: Page) => page.getByTestId('unit-images').locator('input[type="file"]');

describe('unit pictures in the unit editor', () => {
  it('adds a picture, refuses a renamed text file and a large one, and deletes after confirmation', async () => {
    const { context, page, errors } = await openPage(browser);
    const cspViolations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
    await logInAt(page, app.url, `/user/edit-terminal?imei=${IMEI}`, demoUsers.admin.username);
    await openPictures(page);
    const panel = page.getByTestId('unit-images');
    await expect.poll(() => panel.getByText(unitImagesEn.unitImagesNone).isVisible()).toBe(true);
    expect(await page.getByTestId('unit-images-count').textContent()).toBe(text(unitImagesEn.unitImagesCount, { count: 0, max: 5 }));
    await checkAndShoot(page, SHOTS, 'pictures-empty-en');

    // A real PNG: uploaded, confirmed and shown from the runtime's signed URL.
    const unitName = (await getUnitItem(IMEI))?.name ?? IMEI;
    await fileInput(page).setInputFiles({ name: 'boat.png', mimeType: 'image/png', buffer: await drawnPng(page) });
    const picture = panel.getByRole('img', { name: text(unitImagesEn.unitImagesAlt, { index: 1, unit: unitName }) });
    await picture.waitFor({ state: 'visible', timeout: 10_000 });
    await poll(() => picture.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBe(320);
    expect(await page.getByTestId('unit-images-count').textContent()).toBe(text(unitImagesEn.unitImagesCount, { count: 1, max: 5 }));
    await checkAndShoot(page, SHOTS, 'pictures-one-en');

    // A text file renamed to .png: refused by its content, with the server's message.
    await fileInput(page).setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('Shopping list: bread, milk\n'.repeat(20)) });
    await poll(() => panel.getByRole('alert').textContent()).toBe(unitImagesEn.ImageTypeNotAllowed);
    await checkAndShoot(page, SHOTS, 'pictures-refused-type-en');
    // More than 1 MB.
    const big = Buffer.alloc(MAX_IMAGE_BYTES + 1);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(big);
    await fileInput(page).setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: big });
    await poll(() => panel.getByRole('alert').textContent()).toBe(unitImagesEn.ImageTooLarge);
    expect(await page.getByTestId('unit-images-count').textContent()).toBe(text(unitImagesEn.unitImagesCount, { count: 1, max: 5 }));

    // Delete, after a confirmation.
    await panel.getByRole('button', { name: text(unitImagesEn.unitImagesDelete, { index: 1 }) }).click();
    const dialog = page.getByRole('dialog', { name: unitImagesEn.unitImagesDeleteTitle });
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.getByText(text(unitImagesEn.unitImagesDeleteText, { index: 1, unit: unitName })).isVisible()).toBe(true);
    await checkAndShoot(page, SHOTS, 'pictures-delete-en', { fullPage: false });
    await dialog.getByRole('button', { name: unitImagesEn.unitImagesDeleteCancel, exact: true }).last().click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await picture.isVisible()).toBe(true);
    await panel.getByRole('button', { name: text(unitImagesEn.unitImagesDelete, { index: 1 }) }).click();
    await page.getByTestId('unit-image-delete-confirm').click();
    await poll(() => page.getByTestId('unit-images-count').textContent()).toBe(text(unitImagesEn.unitImagesCount, { count: 0, max: 5 }));
    expect(await panel.getByText(unitImagesEn.unitImagesNone).isVisible()).toBe(true);

    expect(cspViolations).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
