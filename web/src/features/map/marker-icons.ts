/**
 * One Tabler icon per marker symbol (spec section 3: car, van, truck, bus, boat, water jet, machine,
 * tractor, trailer, Bluetooth unit, pin): the React component for the unit list, and the icon's SVG
 * path data for the map, which draws it into an image of its own (map-images.ts).
 */
import * as bluetooth from '@tabler/icons-react/dist/esm/icons/IconBluetooth.mjs';
import * as bus from '@tabler/icons-react/dist/esm/icons/IconBus.mjs';
import * as bulldozer from '@tabler/icons-react/dist/esm/icons/IconBulldozer.mjs';
import * as car from '@tabler/icons-react/dist/esm/icons/IconCar.mjs';
import * as caravan from '@tabler/icons-react/dist/esm/icons/IconCaravan.mjs';
import * as jetski from '@tabler/icons-react/dist/esm/icons/IconJetski.mjs';
import * as mapPin from '@tabler/icons-react/dist/esm/icons/IconMapPin.mjs';
import * as speedboat from '@tabler/icons-react/dist/esm/icons/IconSpeedboat.mjs';
import * as tractor from '@tabler/icons-react/dist/esm/icons/IconTractor.mjs';
import * as truck from '@tabler/icons-react/dist/esm/icons/IconTruck.mjs';
import * as truckDelivery from '@tabler/icons-react/dist/esm/icons/IconTruckDelivery.mjs';
import type { TablerIcon } from '@tabler/icons-react';
import type { MarkerSymbol } from '../../../../shared/schemas/tracking';

type IconModule = typeof car;

const icons: Readonly<Record<MarkerSymbol, IconModule>> = {
  car,
  van: truckDelivery,
  truck,
  bus,
  boat: speedboat,
  waterjet: jetski,
  machine: bulldozer,
  tractor,
  trailer: caravan,
  bluetooth,
  pin: mapPin,
};

export function symbolIcon(symbol: MarkerSymbol): TablerIcon {
  return icons[symbol].default;
}

/**
 * The `d` of each path of the symbol's icon (Tabler outline icons: 24×24, 2 px stroke). Every icon
 * module exports its node list next to the component; the package's types leave it out.
 */
export function symbolPaths(symbol: MarkerSymbol): string[] {
  const { __iconNode } = icons[symbol] as unknown as { __iconNode?: ReadonlyArray<readonly [string, Readonly<Record<string, string>>]> };
  return (__iconNode ?? []).flatMap(([tag, attributes]) => (tag === 'path' && attributes['d'] ? [attributes['d']] : []));
}
