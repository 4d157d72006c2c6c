/**
 * The branded e-mail layout (docs/decisions/0006-email-templates.md): one table-based HTML page
 * with inline styles, which is what mail clients render reliably, and a plain-text twin. Every
 * text that reaches the HTML goes through `escapeHtml`, and links must be http(s), so nothing a
 * user typed (a first name, a username) can inject markup or a script link.
 */
import type { Brand } from '../../../shared/brands';
import type { Language } from '../../../shared/schemas/common';

export type EmailBlock =
  | { kind: 'text'; text: string }
  /** A one-time code, shown large. */
  | { kind: 'code'; code: string }
  /** A button with the address repeated as text for clients that block buttons. */
  | { kind: 'action'; label: string; url: string; fallback: string };

export interface EmailContent {
  subject: string;
  heading: string;
  blocks: EmailBlock[];
  footer: string;
}

export interface LayoutContext {
  brand: Brand;
  lang: Language;
  /** Public origin of the web app: the logo is served from there. */
  appUrl: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Only web links: a `javascript:` or `data:` URL in a button would run in some clients. */
export function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`refusing a ${parsed.protocol} link in an e-mail`);
  return parsed.href;
}

/** A subject is one header line: line breaks would start new headers. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').trim();
}

/** `no` is the portal's code for Norwegian; mail clients and screen readers know Bokmål as `nb`. */
const htmlLang = (lang: Language): string => (lang === 'no' ? 'nb' : lang);

const FONT = 'font-family:Arial,Helvetica,sans-serif;';

function blockHtml(block: EmailBlock, primary: string): string {
  switch (block.kind) {
    case 'text':
      return `<p style="margin:0 0 16px;">${escapeHtml(block.text)}</p>`;
    case 'code':
      return `<p style="margin:8px 0 24px;font-size:32px;font-weight:bold;letter-spacing:8px;${FONT}color:#1a1a1a;">${escapeHtml(block.code)}</p>`;
    case 'action': {
      const href = escapeHtml(safeUrl(block.url));
      return [
        `<p style="margin:8px 0 24px;"><a href="${href}" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${escapeHtml(primary)};color:#ffffff;font-weight:bold;text-decoration:none;${FONT}">${escapeHtml(block.label)}</a></p>`,
        `<p style="margin:0 0 16px;font-size:13px;color:#555555;">${escapeHtml(block.fallback)}<br><a href="${href}" style="color:${escapeHtml(primary)};word-break:break-all;">${escapeHtml(safeUrl(block.url))}</a></p>`,
      ].join('\n');
    }
  }
}

function blockText(block: EmailBlock): string {
  switch (block.kind) {
    case 'text':
      return block.text;
    case 'code':
      return block.code;
    case 'action':
      return `${block.label}:\n${safeUrl(block.url)}`;
  }
}

export function renderLayout(content: EmailContent, context: LayoutContext): RenderedEmail {
  const { brand } = context;
  const subject = oneLine(content.subject);
  const logo = new URL(brand.logo, context.appUrl).href;
  const text = [content.heading, ...content.blocks.map(blockText), '--', content.footer].join('\n\n') + '\n';
  const html = `<!doctype html>
<html lang="${htmlLang(context.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f4f5f7;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f4f5f7;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-radius:8px;border-top:6px solid ${escapeHtml(brand.primary)};${FONT}color:#1a1a1a;">
<tr><td style="padding:24px 32px 0;"><img src="${escapeHtml(logo)}" alt="${escapeHtml(brand.title)}" height="40" style="display:block;height:40px;border:0;"></td></tr>
<tr><td style="padding:16px 32px 16px;font-size:16px;line-height:1.5;${FONT}">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#1a1a1a;">${escapeHtml(content.heading)}</h1>
${content.blocks.map((b) => blockHtml(b, brand.primary)).join('\n')}
</td></tr>
<tr><td style="padding:16px 32px 24px;border-top:1px solid #e5e7eb;font-size:12px;line-height:1.5;color:#555555;${FONT}">${escapeHtml(content.footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { subject, text, html };
}
