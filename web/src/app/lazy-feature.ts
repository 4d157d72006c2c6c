import { lazy, type ComponentType } from 'react';
import { loadFeatureMessages } from '../i18n/i18n';
import type { BrowserFeature } from '../i18n/feature-messages';

/**
 * A lazily loaded component whose feature texts are loaded before it renders. Some pages need a
 * second module's texts too: message keys the server shares between features (the profile's
 * SpecifyFirstName and phone keys live in the registration module).
 */
export function lazyFeature<P extends object>(features: BrowserFeature | readonly BrowserFeature[], load: () => Promise<ComponentType<P>>) {
  const list: readonly BrowserFeature[] = typeof features === 'string' ? [features] : features;
  return lazy(async () => {
    const [component] = await Promise.all([load(), ...list.map((feature) => loadFeatureMessages(feature))]);
    return { default: component };
  });
}
