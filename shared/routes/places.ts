/** The places capability's routes (spread into the manifest, shared/routes.ts). */
import { z } from 'zod';
import {
  placeApplyRequestSchema,
  placeApplySchema,
  placeCreatedSchema,
  placeIdParamSchema,
  placeListSchema,
  placeRequestSchema,
  placeSchema,
} from '../schemas/places';
import { defineRoute } from '../route-def';

const nothing = z.null();
const saveRules =
  'Label required, at most 50 (SpecifyPlaceLabel, PlaceLabelTooLong); address at most 50 (PlaceAddressTooLong); radius 50..9999 m (PlaceRadiusMissing, PlaceRadiusTooSmall, PlaceRadiusTooLarge); 1..45 units of the caller (PlaceSelectUnit, PlaceTooManyUnits, PlaceUnitNotFound); rule.when start, end or between, rule.type business, private or other; between needs rule.otherPlaceId naming another place of the account assigned to every unit of this one (SelectOtherPlace, OtherPlaceNotFound, OtherPlaceIsThisPlace, OtherPlaceMissingUnits); schedule: weekly windows read in the TimeZone header\'s zone, none: always. A concurrent save of the same places: 409 CouldNotSavePlace.';

export const placeRoutes = {
  getPlaces: defineRoute({
    operationId: 'getPlaces',
    method: 'GET',
    path: '/api/v1/user/places',
    capability: 'places',
    file: 'get-places',
    access: 'member',
    feature: 'fullSubscription',
    summary: "The account's places with their rules, by label (an ordinary user: those whose units are all granted to them).",
    response: placeListSchema,
  }),
  getPlace: defineRoute({
    operationId: 'getPlace',
    method: 'GET',
    path: '/api/v1/user/places/{id}',
    capability: 'places',
    file: 'get-place',
    access: 'member',
    feature: 'fullSubscription',
    summary: 'One place (404 PlaceNotFound for one the caller cannot see).',
    params: placeIdParamSchema,
    response: placeSchema,
  }),
  createPlace: defineRoute({
    operationId: 'createPlace',
    method: 'POST',
    path: '/api/v1/user/places',
    capability: 'places',
    file: 'post-place',
    access: 'member',
    feature: 'fullSubscription',
    summary: `Creates a place; trips detected afterwards that match its rule get its type. ${saveRules}`,
    body: placeRequestSchema,
    response: placeCreatedSchema,
  }),
  updatePlace: defineRoute({
    operationId: 'updatePlace',
    method: 'PUT',
    path: '/api/v1/user/places/{id}',
    capability: 'places',
    file: 'put-place',
    access: 'member',
    feature: 'fullSubscription',
    summary: `Replaces a place; trips stored before keep their type (POST .../apply re-types them). A place another place's between rule names keeps that place's units (422 errors.imeis PlaceUsedByRule). ${saveRules}`,
    params: placeIdParamSchema,
    body: placeRequestSchema,
    response: nothing,
  }),
  deletePlace: defineRoute({
    operationId: 'deletePlace',
    method: 'DELETE',
    path: '/api/v1/user/places/{id}',
    capability: 'places',
    file: 'delete-place',
    access: 'member',
    feature: 'fullSubscription',
    summary: "Deletes a place and its copies on the units; trips keep their types. Named by another place's between rule: 409 PlaceUsedByRule.",
    params: placeIdParamSchema,
    response: nothing,
  }),
  applyPlace: defineRoute({
    operationId: 'applyPlace',
    method: 'POST',
    path: '/api/v1/user/places/{id}/apply',
    capability: 'places',
    file: 'post-place-apply',
    access: 'member',
    feature: 'fullSubscription',
    summary:
      "Gives the place's rule type to its units' trips that start in a period of local days (the TimeZone header's zone, at most 12 months: PlaceApplyPeriodTooLong) and match the rule on its schedule; attested trips are kept (counted in `attested`). The type counts as the caller's edit.",
    params: placeIdParamSchema,
    body: placeApplyRequestSchema,
    response: placeApplySchema,
  }),
} as const;
