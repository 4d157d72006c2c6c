import { lazy, type ComponentType } from 'react';
import { loadFeatureMessages } from '../i18n/i18n';
import type { BrowserFeature } from '../i18n/feature-messages';

/**
 * A lazily loaded component whose feature texts are loaded before it renders. Some pages need a
 * second module's texts too: message keys the server shares between features (the profile's
 * SpecifyFirstName and phone keys live in the registration module). `preload()` starts loading
 * both before the component is rendered (the map opened directly, while the settings load); the
 * render then waits for the same load. A failed load is tried again by the next.
 */
export function lazyFeature<P extends object>(features: BrowserFeature | readonly BrowserFeature[], load: () => Promise<ComponentType<P>>) {
  const list: readonly BrowserFeature[] = typeof features === 'string' ? [features] : features;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () => {
    if (!loading) {
      const started = Promise.all([load(), ...list.map((feature) => loadFeatureMessages(feature))]).then(([component]) => ({ default: component }));
      started.catch(() => {
        if (loading === started) loading = null;
      });
      loading = started;
    }
    return loading;
  };
  return Object.assign(lazy(preload), { preload });
}
