import { createContext, useContext } from 'react';
import { brandById, type Brand } from '../../../shared/brands';

export const BrandContext = createContext<Brand>(brandById(0));

/** The brand of this page load (subsite 0 to 7). */
export function useBrand(): Brand {
  return useContext(BrandContext);
}
