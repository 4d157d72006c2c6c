/** The URL of the offline base map's archive, made by the web build (web/vite.config.ts, `offlineBasemap`). */
declare module 'virtual:offline-basemap' {
  const url: string;
  export default url;
}
