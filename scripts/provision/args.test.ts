import { describe, expect, it } from 'vitest';
import { UsageError, parseProvisionArgs, splitImeis } from './args';

describe('provision arguments', () => {
  it('targets the embedded runtime of DATA_DIR (default .data), IMEIs distinct in the given order', () => {
    expect(parseProvisionArgs(['356938035643809', '123', '356938035643809'])).toEqual({
      help: false,
      imeis: ['356938035643809', '123'],
      target: { kind: 'embedded', dataDir: '.data' },
    });
    expect(parseProvisionArgs(['356938035643809'], { DATA_DIR: '/srv/portal' }).target).toEqual({ kind: 'embedded', dataDir: '/srv/portal' });
    expect(parseProvisionArgs(['--data-dir', 'x', '356938035643809'], { DATA_DIR: '/srv/portal' }).target).toEqual({ kind: 'embedded', dataDir: 'x' });
  });

  it('targets a stack with --stack, certificates in ./certificates unless --out says otherwise', () => {
    expect(parseProvisionArgs(['--stack', 'TrackingPortal-dev', '356938035643809']).target).toEqual({
      kind: 'aws',
      stackName: 'TrackingPortal-dev',
      outDir: 'certificates',
      newCertificate: false,
    });
    expect(parseProvisionArgs(['--stack=TrackingPortal', '--out', '/secure', '--new-certificate', '356938035643809']).target).toEqual({
      kind: 'aws',
      stackName: 'TrackingPortal',
      outDir: '/secure',
      newCertificate: true,
    });
  });

  it.each([
    [[], /at least one IMEI/],
    [['--stack'], /argument missing/],
    [['--stack', '', '356938035643809'], /stack name/],
    [['--out', 'x', '356938035643809'], /--stack/],
    [['--new-certificate', '356938035643809'], /--stack/],
    [['--stack', 'S', '--data-dir', 'x', '356938035643809'], /--data-dir/],
    [['--bogus', '356938035643809'], /--bogus/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseProvisionArgs(argv)).toThrow(UsageError);
    expect(() => parseProvisionArgs(argv)).toThrow(message);
  });

  it('answers --help without IMEIs', () => {
    expect(parseProvisionArgs(['--help']).help).toBe(true);
    expect(parseProvisionArgs(['-h']).help).toBe(true);
  });

  it('splits valid IMEIs (15 digits, Luhn) from the rest', () => {
    expect(splitImeis(['356938035643809', '356938035643808', '123', '35693803564380x', ' 356938035643809'])).toEqual({
      valid: ['356938035643809'],
      invalid: ['356938035643808', '123', '35693803564380x', ' 356938035643809'],
    });
  });
});
