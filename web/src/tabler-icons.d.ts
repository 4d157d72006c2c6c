/**
 * Per-icon imports of @tabler/icons-react (one small module each, so nothing but the icons used
 * reaches a bundle, in dev as in build). The package has no types for these paths.
 */
declare module '@tabler/icons-react/dist/esm/icons/*.mjs' {
  import type { TablerIcon } from '@tabler/icons-react';
  const icon: TablerIcon;
  export default icon;
}
