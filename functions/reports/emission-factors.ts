/**
 * The emission factors of the environmental report, one per fuel type and basis, each with what
 * it counts and where it comes from (docs/decisions/0040-fuel-and-co2.md):
 *
 * - tank-to-wheel (TTW): the CO2 of burning the fuel in the vehicle, nothing upstream;
 * - well-to-wheel (WTW): the life cycle, CO2 equivalents from extraction or cultivation through
 *   production and distribution to combustion, as Miljöfordon and Swedish public procurement
 *   count it.
 *
 * Per the fuel's quantity (shared/schemas/fuel.ts `FUEL_QUANTITY`): kg per litre, kWh or kg. The
 * Swedish life-cycle values are Energimyndigheten's for the fuels delivered in 2016, the latest
 * yearly table at hand; they move with the reduction obligation's blend, so a newer year's table
 * replaces them here. A factor that no source gives is absent (null), and the report says so
 * rather than guessing.
 */
import type { FuelType } from '../../shared/schemas/fuel';

export type EmissionBasis = 'ttw' | 'wtw';

export interface EmissionFactor {
  /** kg CO2 (TTW) or kg CO2e (WTW) per litre, kWh or kg of the fuel. */
  kgPerQuantity: number;
  /** What the factor counts: a key of the report's texts (ReportFactorBasis_*). */
  basis: string;
  /** Where the figure comes from, as cited (names and years are not translated). */
  source: string;
}

export const EMISSION_FACTORS: Readonly<Record<FuelType, Record<EmissionBasis, EmissionFactor | null>>> = {
  petrol: {
    ttw: { kgPerQuantity: 2.32, basis: 'ReportFactorBasis_combustionFossil', source: 'Miljødirektoratet, NIR 2021 (bensin 2.32 kg CO2/l)' },
    wtw: { kgPerQuantity: 2.89, basis: 'ReportFactorBasis_lifeCycleBlend', source: 'Energimyndigheten, drivmedel levererade 2016 (Bensin MK1 91.3 g CO2e/MJ, 2 890 g/l)' },
  },
  diesel: {
    ttw: { kgPerQuantity: 2.66, basis: 'ReportFactorBasis_combustionFossil', source: 'Miljødirektoratet, NIR 2021 (diesel 2.66 kg CO2/l)' },
    wtw: { kgPerQuantity: 2.853, basis: 'ReportFactorBasis_lifeCycleBlend', source: 'Energimyndigheten, drivmedel levererade 2016 (Diesel MK1 80.4 g CO2e/MJ, 2 853 g/l)' },
  },
  gas: {
    ttw: { kgPerQuantity: 1.665, basis: 'ReportFactorBasis_combustionChemistry', source: 'ecoscore.be, carbon content of LPG (1 665 g CO2/l)' },
    wtw: null,
  },
  cng: {
    ttw: { kgPerQuantity: 2.666, basis: 'ReportFactorBasis_combustionChemistry', source: 'ecoscore.be, carbon content of CNG H-gas (2 666 g CO2/kg)' },
    wtw: { kgPerQuantity: 3.562, basis: 'ReportFactorBasis_lifeCycleNaturalGas', source: 'Energimyndigheten, drivmedel levererade 2016 (naturgas 73.6 g CO2e/MJ × 48.4 MJ/kg)' },
  },
  electricity: {
    ttw: { kgPerQuantity: 0, basis: 'ReportFactorBasis_noCombustion', source: 'No combustion in the vehicle' },
    wtw: { kgPerQuantity: 0.047, basis: 'ReportFactorBasis_lifeCycleGrid', source: 'Energimyndigheten, svensk elmix (JRC 2017: 13.1 g CO2e/MJ = 47 g/kWh)' },
  },
  other: { ttw: null, wtw: null },
};

/** The factor of a fuel on a basis, or null where no source gives one. */
export const emissionFactor = (fuelType: FuelType, basis: EmissionBasis): EmissionFactor | null => EMISSION_FACTORS[fuelType][basis];
