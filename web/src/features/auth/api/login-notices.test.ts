import { describe, expect, it } from 'vitest';
import { loginNoticeKey, loginNoticeText } from './login-notices';

const texts: Record<string, string> = { PasswordChanged: 'Changed', AlertOptOutDone: 'No more alerts' };
const translate = (key: string) => texts[key] ?? `?${key}`;
const isKnown = (key: string) => key in texts;
const none = new URLSearchParams();

describe('login notices', () => {
  it('shows a named notice from navigation state or the query string', () => {
    expect(loginNoticeKey({ notice: 'password-changed' }, none)).toBe('PasswordChanged');
    expect(loginNoticeKey(null, new URLSearchParams('notice=registered'))).toBe('YouCanNowLogin');
    expect(loginNoticeText({ notice: 'password-changed' }, none, translate, isKnown)).toBe('Changed');
  });

  it('ignores unknown notice names, also inherited object keys', () => {
    expect(loginNoticeKey({ notice: 'hacked' }, none)).toBeNull();
    expect(loginNoticeKey(null, new URLSearchParams('notice=toString'))).toBeNull();
  });

  it('shows a known message key handed over as state, never one from the address bar', () => {
    expect(loginNoticeText({ message: 'AlertOptOutDone' }, none, translate, isKnown)).toBe('No more alerts');
    expect(loginNoticeText({ message: 'NoSuchKey' }, none, translate, isKnown)).toBeNull();
    expect(loginNoticeText(null, new URLSearchParams('message=AlertOptOutDone'), translate, isKnown)).toBeNull();
    expect(loginNoticeText(undefined, none, translate, isKnown)).toBeNull();
  });
});
