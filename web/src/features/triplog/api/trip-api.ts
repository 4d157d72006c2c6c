/**
 * The trip log's calls (docs/api.md Trips): the period's trips, editing, merge and split, a trip's
 * route, attestation, odometer entries, the drivers to pick from and driver check-in. Schemas come from
 * shared/schemas/trips.ts; every answer is checked against them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  attestationSchema,
  attestationStatusSchema,
  attestReminderSchema,
  checkInCodeSchema,
  checkInUnitSchema,
  driverCheckInSchema,
  driverListSchema,
  odometerEntryListSchema,
  odometerEntrySchema,
  tripListSchema,
  tripRouteSchema,
  tripPassagesSchema,
  tripSchema,
  tripSplitSchema,
  type AttestRequest,
  type DriverCheckInRequest,
  type OdometerEntryRequest,
  type Trip,
  type TripList,
  type TripUpdate,
} from '../../../../../shared/schemas/trips';
import { demoHistorySchema } from '../../../../../shared/schemas/system';
import { apiRequest } from '../../../app/api-client';
import { tripPaths, withParams } from './trip-paths';

export interface TripsQuery {
  imei: string;
  from: string;
  to: string;
}

export const tripsKey = (q: TripsQuery | null) => ['trips', q?.imei ?? null, q?.from ?? null, q?.to ?? null] as const;

export function fetchTrips(q: TripsQuery, signal?: AbortSignal): Promise<TripList> {
  const path = `${tripPaths.list}?${new URLSearchParams({ imei: q.imei, from: q.from, to: q.to }).toString()}`;
  return apiRequest('GET', path, signal ? { schema: tripListSchema, signal } : { schema: tripListSchema });
}

/** How often, and how many times, a list with trips still without an address is asked again. */
const ADDRESS_REFETCH_MS = 4_000;
const ADDRESS_REFETCHES = 3;

const lacksAddress = (trip: Pick<Trip, 'startAddress' | 'stopAddress'>) => trip.startAddress === null || trip.stopAddress === null;

/**
 * When the trips' list is asked again for addresses: a period's trips shown for the first time get
 * them then, and what the server's time left comes from its queue within seconds. At most
 * ADDRESS_REFETCHES times, since a trip may have none (at sea) or hide them (another's private trip).
 */
export function addressRefetchInterval(state: { dataUpdateCount: number; data?: Pick<TripList, 'trips'> | undefined }): number | false {
  return state.dataUpdateCount <= ADDRESS_REFETCHES && state.data?.trips.some(lacksAddress) ? ADDRESS_REFETCH_MS : false;
}

/** The period's trips; null asks for nothing (no unit yet, or a period the browser refused). */
export function useTrips(q: TripsQuery | null) {
  return useQuery({
    queryKey: tripsKey(q),
    queryFn: ({ signal }) => fetchTrips(q as TripsQuery, signal),
    enabled: q !== null,
    // Trips of a running day grow while the unit drives; an edit elsewhere shows on return.
    staleTime: 30_000,
    refetchInterval: (query) => addressRefetchInterval(query.state),
    retry: (count, error) => count < 2 && !(error instanceof Error && 'status' in error && (error as { status: number }).status === 422),
  });
}

/**
 * Whether the portal on one machine (`npm start`) is still filling the account's demo history
 * (GET /api/dev/demo-history, embedded only): asked again every 5 s while it is. Where the route
 * does not exist (AWS) or fails, nothing is filling as far as the trip log is concerned.
 */
export function useDemoHistory() {
  return useQuery({
    queryKey: ['demo-history'],
    queryFn: ({ signal }) => apiRequest('GET', tripPaths.demoHistory, { schema: demoHistorySchema, signal }),
    retry: false,
    staleTime: 5_000,
    refetchInterval: (query) => (query.state.data?.filling ? 5_000 : false),
  });
}

export function updateTrip(id: string, body: TripUpdate): Promise<Trip> {
  return apiRequest('PUT', withParams(tripPaths.trip, { id }), { body, schema: tripSchema });
}

export function mergeTrips(ids: [string, string]): Promise<Trip> {
  return apiRequest('POST', tripPaths.merge, { body: { ids }, schema: tripSchema });
}

export function splitTrip(id: string): Promise<Trip[]> {
  return apiRequest('POST', withParams(tripPaths.split, { id }), { schema: tripSplitSchema });
}

export function fetchTripPassages(id: string, signal?: AbortSignal) {
  return apiRequest('GET', withParams(tripPaths.passages, { id }), signal ? { schema: tripPassagesSchema, signal } : { schema: tripPassagesSchema });
}

export function fetchTripRoute(id: string, signal?: AbortSignal) {
  return apiRequest('GET', withParams(tripPaths.route, { id }), signal ? { schema: tripRouteSchema, signal } : { schema: tripRouteSchema });
}

export function attestPeriod(body: AttestRequest) {
  return apiRequest('POST', tripPaths.attest, { body, schema: attestationSchema });
}

/** Every query of the trip log of one unit is asked again after a change (totals, locks, drivers). */
export function useInvalidateTrips() {
  const queryClient = useQueryClient();
  return (imei: string) => queryClient.invalidateQueries({ queryKey: ['trips', imei] });
}

// Odometer entries

export const odometerKey = (imei: string) => ['odometer-entries', imei] as const;

export function useOdometerEntries(imei: string | null) {
  return useQuery({
    queryKey: odometerKey(imei ?? ''),
    queryFn: ({ signal }) => apiRequest('GET', withParams(tripPaths.odometerEntries, { imei: imei ?? '' }), { schema: odometerEntryListSchema, signal }),
    enabled: imei !== null,
  });
}

export function useAddOdometerEntry(imei: string) {
  const queryClient = useQueryClient();
  const invalidateTrips = useInvalidateTrips();
  return useMutation({
    mutationFn: (body: OdometerEntryRequest) => apiRequest('POST', withParams(tripPaths.odometerEntries, { imei }), { body, schema: odometerEntrySchema }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: odometerKey(imei) });
      // An entry corrects the odometers of later trips.
      void invalidateTrips(imei);
    },
  });
}

export function useDeleteOdometerEntry(imei: string) {
  const queryClient = useQueryClient();
  const invalidateTrips = useInvalidateTrips();
  return useMutation({
    mutationFn: (entryId: string) => apiRequest('DELETE', withParams(tripPaths.odometerEntry, { imei, entryId })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: odometerKey(imei) });
      void invalidateTrips(imei);
    },
  });
}

// Driver check-in

export function driverCheckIn(body: DriverCheckInRequest) {
  return apiRequest('POST', tripPaths.checkIn, { body, schema: driverCheckInSchema });
}

/** Who can be the unit's driver (the account's users, by name): every driver picker offers these. */
export function useDrivers(imei: string | null) {
  return useQuery({
    queryKey: ['drivers', imei],
    queryFn: ({ signal }) => apiRequest('GET', withParams(tripPaths.drivers, { imei: imei ?? '' }), { schema: driverListSchema, signal }),
    enabled: imei !== null,
    // Users are added rarely; a picker opened again within minutes need not ask again.
    staleTime: 5 * 60_000,
  });
}

/** The unit a QR check-in code belongs to; 404 InvalidQrCode and 403 QrCheckInNotAllowed are answers (not asked again). */
export function useCheckInUnit(code: string | null) {
  return useQuery({
    queryKey: ['check-in-unit', code],
    queryFn: ({ signal }) => apiRequest('GET', withParams(tripPaths.checkInUnit, { code: code ?? '' }), { schema: checkInUnitSchema, signal }),
    enabled: code !== null,
    staleTime: Infinity,
  });
}

export function useCheckInCode(imei: string | null) {
  return useQuery({
    queryKey: ['check-in-code', imei],
    queryFn: ({ signal }) => apiRequest('GET', withParams(tripPaths.checkInCode, { imei: imei ?? '' }), { schema: checkInCodeSchema, signal }),
    enabled: imei !== null,
    staleTime: Infinity,
  });
}

// Administration: where each user's attestation of a month stands

export const attestationStatusKey = (month: string) => ['attestation-status', month] as const;

export function useAttestationStatus(month: string | null) {
  return useQuery({
    queryKey: attestationStatusKey(month ?? ''),
    queryFn: ({ signal }) =>
      apiRequest('GET', `${tripPaths.attestationStatus}?${new URLSearchParams({ month: month ?? '' }).toString()}`, { schema: attestationStatusSchema, signal }),
    enabled: month !== null,
  });
}

export type AttestationAction = 'approve' | 'unlock' | 'remove';

export function attestationAction(action: AttestationAction, id: string) {
  switch (action) {
    case 'approve':
      return apiRequest('POST', withParams(tripPaths.approveAttestation, { id }), { schema: attestationSchema });
    case 'unlock':
      return apiRequest('POST', withParams(tripPaths.unlockAttestation, { id }), { schema: attestationSchema });
    case 'remove':
      return apiRequest('DELETE', withParams(tripPaths.deleteAttestation, { id }));
  }
}

export function remindToAttest(body: { userId: string; month: string; requestId: string }) {
  return apiRequest('POST', tripPaths.remindAttestation, { body, schema: attestReminderSchema });
}
