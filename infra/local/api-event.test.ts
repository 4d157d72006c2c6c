import { describe, expect, it } from 'vitest';
import { routeList } from '../../shared/routes';
import { compileRoutes, decodePathParameter, matchRoute } from './api-event';

describe('path parameters of the embedded server', () => {
  it('are decoded as UTF-8, and a malformed escape never throws', () => {
    expect(decodePathParameter('a%C3%A5b%20c')).toBe('aåb c');
    expect(decodePathParameter('%ff')).toBe('\ufffd');
    expect(decodePathParameter('a%c3%28')).toBe('a\ufffd(');
    expect(decodePathParameter('%e2%82')).toBe('\ufffd');
    expect(decodePathParameter('é%ff😀')).toBe('é\ufffd😀');
    // A % that starts no escape stays as it is.
    expect(decodePathParameter('%zz%')).toBe('%zz%');
    expect(decodePathParameter('%ff%zz')).toBe('\ufffd%zz');
  });

  it('a route with a malformed escape still matches, with the value decoded', () => {
    const match = matchRoute(compileRoutes(routeList), 'GET', '/api/v1/user/units/%ff/positions');
    expect(match?.compiled.route.operationId).toBeDefined();
    expect(match?.params).toEqual({ imei: '\ufffd' });
  });

  it('prefers literal segments over a path parameter, whatever the order of the routes', () => {
    for (const list of [routeList, [...routeList].reverse()]) {
      const compiled = compileRoutes(list);
      expect(matchRoute(compiled, 'GET', '/api/v1/user/reports/exports')?.compiled.route.operationId).toBe('getReportExports');
      expect(matchRoute(compiled, 'GET', '/api/v1/user/reports/schedules')?.compiled.route.operationId).toBe('getReportSchedules');
      expect(matchRoute(compiled, 'GET', '/api/v1/user/reports/tripLog')).toMatchObject({ compiled: { route: { operationId: 'getReport' } }, params: { kind: 'tripLog' } });
    }
  });
});
