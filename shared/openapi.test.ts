import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiDocument } from './openapi';
import { routes, type RouteDef } from './routes';

type Operation = { responses: Record<string, { description: string; content?: unknown }>; 'x-feature'?: string };
const operationOf = (doc: Record<string, unknown>, path: string, method: string): Operation | undefined =>
  (doc['paths'] as Record<string, Record<string, Operation>>)[path]?.[method];

describe('openApiDocument', () => {
  it("shows a route's account feature and the 403 with its message key", () => {
    const realtime = operationOf(openApiDocument(), routes.getRealtimeUnits.path, 'get');
    expect(realtime?.['x-feature']).toBe('realtimeMap');
    expect(realtime?.responses['403']).toEqual({
      description: expect.stringContaining('the real-time map') as string,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['success', 'message', 'errors'],
            properties: { success: { const: false }, message: { const: 'RealtimeMapNotIncluded' }, errors: { const: 'RealtimeMapNotIncluded' } },
          },
        },
      },
    });
    const positions = operationOf(openApiDocument(), routes.getPositions.path, 'get');
    expect(positions?.['x-feature']).toBeUndefined();
    expect(positions?.responses['403']).toBeUndefined();
  });

  it('lists both refusals of an admin route that names a feature', () => {
    const route: RouteDef = {
      operationId: 'bookCar',
      method: 'POST',
      path: '/api/v1/user/bookings',
      capability: 'bookings',
      file: 'post-booking',
      access: 'admin',
      feature: 'carBooking',
      summary: 'test',
      response: z.null(),
    };
    const op = operationOf(openApiDocument([route]), route.path, 'post');
    expect(op?.['x-feature']).toBe('carBooking');
    expect(op?.responses['403']?.description).toMatch(/account admin, NoAccessToAdministratorPages; or .*car booking.*CarBookingNotIncluded/);
    expect(JSON.stringify(op?.responses['403']?.content)).toContain('"enum":["NoAccessToAdministratorPages","CarBookingNotIncluded"]');
  });
});
