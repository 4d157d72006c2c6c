import '@mantine/core/styles.css';
import './app/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { brandById } from '../../shared/brands';
import { readStoredLanguage, readSubsite } from './app/preferences';
import { Providers } from './app/providers';
import { AppRoutes } from './app/app-routes';
import { loadSession } from './app/session';
import { initI18n } from './i18n/i18n';
import { ErrorBoundary } from './ui/error-boundary';
import { startWebVitals } from './app/web-vitals/start';

/** Sets the favicon of the brand (the per-brand index.html already has it; `?subsite=N` does not). */
function applyFavicon(href: string): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  link.type = 'image/svg+xml';
  link.href = href;
}

/**
 * Application start (spec section 4): render only after the stored language, the subsite and the
 * user are read. The subsite of this load is stored each time.
 */
async function start(): Promise<void> {
  const root = document.getElementById('root');
  if (!root) throw new Error('No #root element in index.html');
  const brand = brandById(readSubsite(root));
  document.title = brand.title;
  applyFavicon(brand.icon);
  await Promise.all([initI18n(readStoredLanguage()), loadSession()]);

  createRoot(root).render(
    <StrictMode>
      <Providers brand={brand}>
        <ErrorBoundary>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </ErrorBoundary>
      </Providers>
    </StrictMode>,
  );
  // Sampled page views measure LCP, INP, CLS and TTFB, loaded once the page is idle.
  startWebVitals(brand.id);
}

void start();
