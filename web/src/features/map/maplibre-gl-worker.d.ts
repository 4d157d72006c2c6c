/** MapLibre's worker module (maplibre-worker.ts starts it in a worker of its own); its package declares no types for it. */
declare module 'maplibre-gl/dist/maplibre-gl-worker.mjs' {
  const MapLibreWorker: unknown;
  export default MapLibreWorker;
}
