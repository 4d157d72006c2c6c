/** The unit editor's routes (spread into the manifest, shared/routes.ts). */
import { z } from 'zod';
import {
  operatingHoursEntryListSchema,
  operatingHoursEntryParamsSchema,
  operatingHoursEntryRequestSchema,
  operatingHoursEntrySchema,
  unitEditorParamsSchema,
  unitEditorSchema,
  unitUpdateSchema,
} from '../schemas/unit-editor';
import { defineRoute } from '../route-def';

const rules =
  'name required, at most 50 (SpecifyUnitName, UnitNameTooLong); registrationNumber letters and digits only, stored upper case (RegistrationNumberInvalid, RegistrationNumberTooLong), at most 2 changes per unit in any 24 hours (RegistrationNumberChangedTooOften); colour #rrggbb (InvalidColour); symbol and vehicleType from their lists (InvalidSymbol, InvalidVehicleType); subscriptionType and reportFrequencyChange support staff only (SubscriptionTypeReadOnly); fuelType, consumption (> 0, ConsumptionMustBePositive) and co2 (SpecifyCo2, Co2Invalid) saved together; idleConsumption litres (kWh, kg) per hour above 0 up to 20, or null (IdleConsumptionInvalid); nextInspection yyyy-MM-dd (InspectionDateInvalid); ecoSensitivity sensitive, normal or insensitive; overspeedKmh 1..350 or null, overspeedSeconds 0..3600; dinAlarms, dinLabels and doutLabels by input/output "1".."3", labels at most 20 (DinLabelTooLong, DoutLabelTooLong); timeTillParkedMinutes 1..1440; reportFrequency { value, unit: seconds | minutes | hours } 10 s..24 h (ReportFrequencyInvalid), refused with DeniedChangeRF or FrequencyLocked while support has denied or locked it; objectDescription and theft texts at most 100 (TextTooLong), links at most 5 http(s) URLs, theft.date yyyy-MM-dd, ownerEmail checked (OwnerEmailInvalid), ownerPhone any valid number of ownerPhoneCountry (ISO, SE when absent), stored as E.164 (EnterValidPhoneNumber); serviceIntervals at most 10 of { id?, name, kind: distance | hours | date, every: km | hours | months, lastService: km | hours | yyyy-MM-dd }; odometer (km, 0..10 000 000: SpecifyOdometer, OdometerInvalid) and operatingHours (hours, 0..1 000 000: SpecifyOperatingHours, OperatingHoursInvalid) are readings now, each stored as an entry (the odometer an odometer entry of the trip log), refused with 423 TrackerIsLocked on a unit locked by someone else. Every problem is 422 errors.<field> with its key.';

export const unitEditorRoutes = {
  getUnitDetails: defineRoute({
    operationId: 'getUnitDetails',
    method: 'GET',
    path: '/api/v1/user/units/{imei}',
    capability: 'units',
    file: 'editor/get-unit',
    access: 'member',
    summary:
      "One unit's editable fields (spec section 3) with its service intervals' states, its name history (newest first, at most 50) and its live shape; another account's unit or one not granted to an ordinary user: 404 UnitNotFound.",
    params: unitEditorParamsSchema,
    response: unitEditorSchema,
  }),
  updateUnitDetails: defineRoute({
    operationId: 'updateUnitDetails',
    method: 'PUT',
    path: '/api/v1/user/units/{imei}',
    capability: 'units',
    file: 'editor/put-unit',
    access: 'member',
    summary: `Saves any subset of the unit's editable fields (only those given are written; null clears an optional one) and answers the unit. A rename is added to the name history. ${rules}`,
    params: unitEditorParamsSchema,
    body: unitUpdateSchema,
    response: unitEditorSchema,
  }),
  getOperatingHoursEntries: defineRoute({
    operationId: 'getOperatingHoursEntries',
    method: 'GET',
    path: '/api/v1/user/units/{imei}/operating-hours-entries',
    capability: 'units',
    file: 'editor/get-operating-hours-entries',
    access: 'member',
    summary: "A unit's operating-hours readings, oldest first; a unit locked by someone else: 423 TrackerIsLocked.",
    params: unitEditorParamsSchema,
    response: operatingHoursEntryListSchema,
  }),
  postOperatingHoursEntry: defineRoute({
    operationId: 'postOperatingHoursEntry',
    method: 'POST',
    path: '/api/v1/user/units/{imei}/operating-hours-entries',
    capability: 'units',
    file: 'editor/post-operating-hours-entry',
    access: 'member',
    summary:
      "Records the engine hours at a date and time (not in the future: ReadingInFuture; 0 to 1 000 000: OperatingHoursInvalid) with the tracker's engine-hours counter then; the hours shown from then on count on from it.",
    params: unitEditorParamsSchema,
    body: operatingHoursEntryRequestSchema,
    response: operatingHoursEntrySchema,
  }),
  deleteOperatingHoursEntry: defineRoute({
    operationId: 'deleteOperatingHoursEntry',
    method: 'DELETE',
    path: '/api/v1/user/units/{imei}/operating-hours-entries/{entryId}',
    capability: 'units',
    file: 'editor/delete-operating-hours-entry',
    access: 'member',
    summary: 'Deletes an operating-hours reading (EntryNotFound when there is none).',
    params: operatingHoursEntryParamsSchema,
    response: z.null(),
  }),
} as const;
