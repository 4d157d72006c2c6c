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
            properties: {
              success: { const: false },
              message: { enum: ['RealtimeMapNotIncluded', 'ApiKeyScopeMissing'] },
              errors: { enum: ['RealtimeMapNotIncluded', 'ApiKeyScopeMissing'] },
            },
          },
        },
      },
    });
    const positions = operationOf(openApiDocument(), routes.getPositions.path, 'get');
    expect(positions?.['x-feature']).toBeUndefined();
    expect(positions?.responses['403']?.description).toBe('Not allowed: the caller is an API key without the scope units:read, ApiKeyScopeMissing');
  });

  it('shows the API key scheme, the scope an operation needs and the 403 of a route closed to keys', () => {
    const doc = openApiDocument();
    const schemes = (doc['components'] as { securitySchemes: Record<string, { scheme: string }> }).securitySchemes;
    expect(schemes['apiKey']?.scheme).toBe('bearer');
    const units = operationOf(doc, routes.getUnits.path, 'get') as Operation & { security?: unknown; 'x-api-key-scope'?: string };
    expect(units['x-api-key-scope']).toBe('units:read');
    expect(units.security).toEqual([{ bearer: [] }, { apiKey: ['units:read'] }]);
    expect(units.responses['429']).toBeDefined();
    const keys = operationOf(doc, routes.getApiKeys.path, 'get') as Operation & { 'x-api-key-scope'?: string };
    expect(keys['x-api-key-scope']).toBeUndefined();
    expect(JSON.stringify(keys.responses['403']?.content)).toContain('"enum":["NoAccessToAdministratorPages","ApiKeyNotAllowed"]');
    expect(operationOf(doc, routes.getOpenApiDocument.path, 'get')?.responses['403']).toBeUndefined();
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
    expect(JSON.stringify(op?.responses['403']?.content)).toContain('"enum":["NoAccessToAdministratorPages","CarBookingNotIncluded","ApiKeyNotAllowed"]');
  });
});
