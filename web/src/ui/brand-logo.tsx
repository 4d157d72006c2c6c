import { useBrand } from '../app/brand-context';

/** The brand's logo (brand 7 ships a dark variant). Decorative size, the brand name as text alternative. */
export function BrandLogo({ height = 36 }: { height?: number }) {
  const brand = useBrand();
  return <img src={brand.logo} alt={brand.title} height={height} style={{ display: 'block', height, width: 'auto' }} />;
}
