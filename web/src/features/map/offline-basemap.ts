import type { StyleSpecification } from 'maplibre-gl';
import type { BasemapWorkerAnswer } from './offline-basemap.worker';
import { offlineStyle } from './offline-style';

export interface OfflineBasemap {
  style: StyleSpecification;
  /** Frees the GeoJSON once no map uses the style any more. */
  dispose(): void;
}

/** The offline style with its data prepared in a worker (see offline-basemap.worker.ts). */
export function loadOfflineBasemap(): Promise<OfflineBasemap> {
  const worker = new Worker(new URL('./offline-basemap.worker.ts', import.meta.url), { type: 'module' });
  return new Promise<OfflineBasemap>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<BasemapWorkerAnswer>) => {
      worker.terminate();
      const answer = event.data;
      if ('error' in answer) return reject(new Error(answer.error));
      const urls = [answer.land, answer.borders].map((buffer) => URL.createObjectURL(new Blob([buffer], { type: 'application/json' })));
      const [land = '', borders = ''] = urls;
      resolve({ style: offlineStyle({ land, borders }), dispose: () => urls.forEach((url) => URL.revokeObjectURL(url)) });
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(event.message || 'offline basemap worker failed'));
    };
    worker.postMessage(null);
  });
}
