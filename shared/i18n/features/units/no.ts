import type { UnitsMessages } from './en';

/** Norwegian texts of the units list: exactly the English keys (the type checks it). */
export const unitsNo: UnitsMessages = {
};
