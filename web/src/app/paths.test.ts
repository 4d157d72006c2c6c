import { describe, expect, it } from 'vitest';
import { isMemberPath, pageTitleKeyFor, paths, routeNameOf } from './paths';

describe('routeNameOf', () => {
  it('knows every route of spec section 2', () => {
    for (const [name, path] of Object.entries(paths)) expect(routeNameOf(path)).toBe(name);
  });
  it('matches the geofence and place editors with an id', () => {
    expect(routeNameOf('/user/geofences/add-edit-geofences/42')).toBe('addEditGeofence');
    expect(routeNameOf('/user/places/add-edit-places/p-7')).toBe('addEditPlace');
    expect(routeNameOf('/user/places/add-edit-places/p-7/more')).toBeNull();
  });
  it('matches the reports page (where a scheduled report links, naming its export) as a member page', () => {
    expect(routeNameOf('/user/create-triplog/reports')).toBe('reports');
    expect(isMemberPath('/user/create-triplog/reports')).toBe(true);
    expect(pageTitleKeyFor('/user/create-triplog/reports')).toBe('Reports');
  });
  it('ignores a trailing slash and rejects unknown addresses', () => {
    expect(routeNameOf('/user/geofences/')).toBe('geofences');
    expect(routeNameOf('/no-such-page')).toBeNull();
    expect(routeNameOf('/user/nothing-here')).toBeNull();
    expect(routeNameOf('/administration/nothing-here')).toBeNull();
  });
});

describe('isMemberPath', () => {
  it('is true for logged-in routes and false for public and unknown ones', () => {
    expect(isMemberPath('/user/realtime-tracking')).toBe(true);
    expect(isMemberPath('/user/alerts')).toBe(true);
    expect(isMemberPath('/administration/user-accounts')).toBe(true);
    expect(isMemberPath('/')).toBe(false);
    expect(isMemberPath('/user/register')).toBe(false);
    expect(isMemberPath('/user/alert-opt-out')).toBe(false);
    expect(isMemberPath('/account/deletion')).toBe(false);
    expect(isMemberPath('/user/unknown')).toBe(false);
  });
});

describe('pageTitleKeyFor', () => {
  it('names each page and the not-found page', () => {
    expect(pageTitleKeyFor('/')).toBe('Login');
    expect(pageTitleKeyFor('/user/realtime-tracking')).toBe('Map');
    expect(pageTitleKeyFor('/administration/configure-alarm-receiver')).toBe('AlarmReceiver');
    expect(pageTitleKeyFor('/nowhere')).toBe('PageNotFoundTitle');
  });
});
