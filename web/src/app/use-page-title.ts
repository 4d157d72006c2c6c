import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useBrand } from './brand-context';
import { pageTitleKeyFor } from './paths';

/** The page title key of the current route. */
export function usePageTitleKey(): string {
  return pageTitleKeyFor(useLocation().pathname);
}

/** Keeps `document.title` as "<page> – <brand>" through navigation and language changes. */
export function useDocumentTitle(): void {
  const { t } = useTranslation();
  const brand = useBrand();
  const title = `${t(usePageTitleKey())} – ${brand.title}`;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
