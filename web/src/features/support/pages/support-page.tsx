/**
 * /support (support staff only): find a customer account by company name, org number, a user's
 * e-mail or a unit's IMEI; see its units with their lock state and unlock a locked one (the locker
 * is e-mailed); set the account's settings that are support's (basic subscription only, each
 * unit's subscription type and report frequency lock) and add SMS credits with a note; set the
 * announcement bar text per brand and language with an optional end time; and the support log of
 * everything support did. A new search closes the previous account's panel.
 */
import { Alert, Button, Group, NumberInput, Paper, Select, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { brands } from '../../../../../shared/brands';
import type { Language } from '../../../../../shared/schemas/common';
import { frequencyChangeStates, subscriptionTypes } from '../../../../../shared/schemas/unit-editor';
import {
  ANNOUNCEMENT_MAX,
  SMS_CREDITS_ADD_MAX,
  SMS_CREDITS_NOTE_MAX,
  smsCreditsAddSchema,
  supportSearchFields,
  type SupportAccount,
  type SupportAccountUnits,
  type SupportAction,
  type SupportSearchField,
  type SupportUnit,
} from '../../../../../shared/schemas/support';
import { ApiError, errorMessage } from '../../../app/api-client';
import { intlLocale, languageOptions } from '../../../i18n/i18n';
import { fieldErrorText } from '../../../ui/form-errors';
import { absoluteTime } from '../../../ui/relative-time';
import {
  useRemoveAnnouncement,
  useSetAnnouncement,
  useSupportAccountUnits,
  useSupportAddCredits,
  useSupportAnnouncements,
  useSupportSetBasicOnly,
  useSupportSetUnitSetting,
  useSupportLog,
  useSupportSearch,
  useSupportUnlock,
} from '../api/support-api';
import { DateTimeField } from '../../../ui/date-fields';
import { ResponsiveTable } from '../components/responsive-table';

const byKeys: Readonly<Record<SupportSearchField, string>> = {
  name: 'SupportByName',
  orgNumber: 'SupportByOrgNumber',
  email: 'SupportByEmail',
  imei: 'SupportByImei',
};
const actionKeys: Readonly<Record<SupportAction, string>> = {
  searchAccounts: 'SupportActionSearchAccounts',
  viewAccount: 'SupportActionViewAccount',
  unlockUnit: 'SupportActionUnlockUnit',
  setAnnouncement: 'SupportActionSetAnnouncement',
  removeAnnouncement: 'SupportActionRemoveAnnouncement',
  setBasicOnly: 'SupportActionSetBasicOnly',
  setSubscriptionType: 'SupportActionSetSubscriptionType',
  setReportFrequencyChange: 'SupportActionSetReportFrequencyChange',
  addSmsCredits: 'SupportActionAddSmsCredits',
};
const frequencyKeys: Readonly<Record<SupportUnit['reportFrequencyChange'], string>> = {
  allowed: 'SupportFrequencyAllowed',
  denied: 'SupportFrequencyDenied',
  locked: 'SupportFrequencyLocked',
};
type Notice = { ok: boolean; text: string } | null;
const languageName = (lang: Language) => languageOptions.find((o) => o.value === lang)?.label ?? lang;

function useLocale(): string {
  const { i18n } = useTranslation();
  return intlLocale(i18n.language === 'sv' || i18n.language === 'no' ? i18n.language : 'en');
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `support-${title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function FindAccount({ chosen, onChoose, onSearch }: { chosen: string | null; onChoose: (account: SupportAccount) => void; onSearch: () => void }) {
  const { t } = useTranslation();
  const [by, setBy] = useState<SupportSearchField>('name');
  const [q, setQ] = useState('');
  const [search, setSearch] = useState<{ by: SupportSearchField; q: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const found = useSupportSearch(search);
  const serverError = found.error instanceof ApiError ? (found.error.fieldErrors['q']?.[0] ?? null) : null;
  return (
    <Section title={t('SupportFindAccount')}>
      <form
        noValidate
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          if (!q.trim()) {
            setError('SupportSearchTooShort');
            return;
          }
          setError(null);
          onSearch();
          setSearch({ by, q: q.trim() });
        }}
      >
        <Group align="flex-start" gap="sm" wrap="wrap">
          <Select
            label={t('SupportSearchBy')}
            data={supportSearchFields.map((f) => ({ value: f, label: t(byKeys[f]) }))}
            value={by}
            onChange={(v) => v && setBy(v as SupportSearchField)}
            allowDeselect={false}
            w={{ base: '100%', xs: 200 }}
          />
          <TextInput
            label={t('SupportSearchText')}
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
            error={fieldErrorText(error ?? serverError ?? undefined)}
            style={{ flex: '1 1 200px' }}
          />
          <Button type="submit" mt={{ base: 0, xs: 25 }} loading={found.isFetching}>
            {t('SupportSearch')}
          </Button>
        </Group>
      </form>
      <div aria-live="polite">
        {found.isError && !serverError ? (
          <Alert color="red" role="alert">
            {errorMessage(found.error)}
          </Alert>
        ) : null}
        {found.data && found.data.accounts.length === 0 ? <Text c="dimmed">{t('SupportNoAccounts')}</Text> : null}
      </div>
      {found.data && found.data.accounts.length > 0 ? (
        <ResponsiveTable
          caption={t('SupportAccountsCaption')}
          rows={found.data.accounts}
          rowKey={(a) => a.accountId}
          columns={[
            { label: t('SupportColumnAccount'), cell: (a) => <Text fw={600}>{a.name}</Text> },
            { label: t('SupportColumnOrgNumber'), cell: (a) => a.orgNumber ?? '–' },
            { label: t('SupportColumnBrand'), cell: (a) => brands[a.subsiteId]?.title ?? t('SupportBrandNumber', { number: a.subsiteId }) },
            {
              label: t('OrgActions'),
              cell: (a) => (
                <Button size="xs" variant={chosen === a.accountId ? 'filled' : 'light'} aria-pressed={chosen === a.accountId} onClick={() => onChoose(a)} aria-label={t('SupportShowUnitsOf', { name: a.name })}>
                  {t('SupportShowUnits')}
                </Button>
              ),
            },
          ]}
        />
      ) : null}
    </Section>
  );
}

/** The translated outcome of the last action, read out by screen readers. */
function NoticeBar({ notice, onClose }: { notice: Notice; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div aria-live="polite">
      {notice ? (
        <Alert color={notice.ok ? 'green' : 'red'} role={notice.ok ? 'status' : 'alert'} withCloseButton closeButtonLabel={t('OrgCancel')} onClose={onClose}>
          {notice.text}
        </Alert>
      ) : null}
    </div>
  );
}

/** The account's settings that are support's: basic subscription only, the SMS balance and adding credits. */
function AccountSettings({ data }: { data: SupportAccountUnits }) {
  const { t } = useTranslation();
  const { accountId, name } = data.account;
  const basicOnly = useSupportSetBasicOnly(accountId);
  const addCredits = useSupportAddCredits(accountId);
  const [notice, setNotice] = useState<Notice>(null);
  const [add, setAdd] = useState<number | ''>('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submitCredits = () => {
    setNotice(null);
    const parsed = smsCreditsAddSchema.safeParse({ add: add === '' ? undefined : add, note });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    addCredits.mutate(parsed.data, {
      onSuccess: (answer) => {
        setNotice({ ok: true, text: t('SupportCreditsAdded', { count: parsed.data.add, name, balance: answer.SmsCredits }) });
        setAdd('');
        setNote('');
      },
      onError: (e) => {
        const fields = e instanceof ApiError ? e.fieldErrors : {};
        const server = Object.fromEntries(['add', 'note'].flatMap((f) => (fields[f]?.[0] ? [[f, fields[f][0]]] : [])));
        if (Object.keys(server).length) setErrors(server);
        else setNotice({ ok: false, text: errorMessage(e) });
      },
    });
  };

  return (
    <Section title={t('SupportSettingsOf', { name })}>
      <NoticeBar notice={notice} onClose={() => setNotice(null)} />
      <Switch
        label={t('SupportBasicOnly')}
        description={t('SupportBasicOnlyHint')}
        checked={data.settings.basicOnly}
        disabled={basicOnly.isPending}
        onChange={(event) => {
          const next = event.currentTarget.checked;
          setNotice(null);
          basicOnly.mutate(next, {
            onSuccess: () => setNotice({ ok: true, text: t('SupportBasicOnlySaved', { state: t(next ? 'SupportOn' : 'SupportOff'), name }) }),
            onError: (e) => setNotice({ ok: false, text: errorMessage(e) }),
          });
        }}
      />
      <Text fw={600} data-testid="support-sms-balance">
        {t('SupportSmsBalance', { count: data.settings.smsCredits })}
      </Text>
      <form
        noValidate
        aria-label={t('SupportAddCredits')}
        onSubmit={(event) => {
          event.preventDefault();
          submitCredits();
        }}
      >
        <Group align="flex-start" gap="sm" wrap="wrap">
          <NumberInput
            label={t('SupportCreditsToAdd')}
            required
            value={add}
            onChange={(v) => setAdd(typeof v === 'number' ? v : v === '' ? '' : Number(v))}
            min={1}
            max={SMS_CREDITS_ADD_MAX}
            allowDecimal={false}
            allowNegative={false}
            error={fieldErrorText(errors['add'])}
            w={{ base: '100%', xs: 180 }}
          />
          <TextInput
            label={t('SupportCreditsNote')}
            description={t('SupportCreditsNoteHint')}
            required
            maxLength={SMS_CREDITS_NOTE_MAX}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            error={fieldErrorText(errors['note'])}
            style={{ flex: '1 1 240px' }}
          />
        </Group>
        <Group mt="sm">
          <Button type="submit" loading={addCredits.isPending}>
            {t('SupportAddCredits')}
          </Button>
        </Group>
      </form>
    </Section>
  );
}

function AccountUnits({ accountId }: { accountId: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 300);
  const units = useSupportAccountUnits(accountId, q);
  const unlock = useSupportUnlock();
  const setUnit = useSupportSetUnitSetting(accountId);
  const [notice, setNotice] = useState<Notice>(null);
  // The first page carries the account and its settings; the rows are every page loaded so far.
  const data = units.data?.pages[0];
  const rows = useMemo(() => units.data?.pages.flatMap((page) => page.units) ?? [], [units.data]);
  const searching = q.trim() !== '';
  const saveUnit = (u: SupportUnit, change: Parameters<typeof setUnit.mutate>[0]) => {
    setNotice(null);
    setUnit.mutate(change, {
      onSuccess: () => setNotice({ ok: true, text: t(change.field === 'subscriptionType' ? 'SupportSubscriptionSaved' : 'SupportFrequencySaved', { name: u.name }) }),
      onError: (e) => setNotice({ ok: false, text: errorMessage(e) }),
    });
  };
  return (
    <>
    {data ? <AccountSettings data={data} /> : null}
    <Section title={data ? t('SupportUnitsOf', { name: data.account.name }) : t('SupportShowUnits')}>
      <NoticeBar notice={notice} onClose={() => setNotice(null)} />
      {units.isError ? <Alert color="red" role="alert">{errorMessage(units.error)}</Alert> : null}
      {data && (data.nextCursor !== null || searching || rows.length > 0) ? (
        <TextInput
          type="search"
          label={t('SupportUnitSearch')}
          description={t('SupportUnitSearchHint')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          maw={420}
        />
      ) : null}
      {data && rows.length === 0 && !units.isFetching ? <Text c="dimmed">{t(searching ? 'SupportNoUnitsFound' : 'SupportNoUnits')}</Text> : null}
      {data && rows.length > 0 ? (
        <ResponsiveTable
          caption={t('SupportUnitsOf', { name: data.account.name })}
          rows={rows}
          rowKey={(u) => u.imei}
          columns={[
            {
              label: t('SupportColumnUnit'),
              cell: (u) => (
                <>
                  <Text fw={600} span>
                    {u.name}
                  </Text>
                  {u.registrationNumber ? <Text size="sm" c="dimmed">{u.registrationNumber}</Text> : null}
                </>
              ),
            },
            { label: t('SupportColumnImei'), cell: (u) => <Text ff="monospace" size="sm">{u.imei}</Text> },
            {
              label: t('SupportColumnLock'),
              cell: (u) =>
                u.lockedByName !== null ? (
                  <Text size="sm" fw={600} c="red.9">
                    {t('SupportLockedBy', { name: u.lockedByName, when: u.lockedAt ? absoluteTime(u.lockedAt, locale) : '' })}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('SupportNotLocked')}
                  </Text>
                ),
            },
            {
              label: t('SupportColumnSubscription'),
              cell: (u) => (
                <Select
                  aria-label={t('SupportSubscriptionOf', { name: u.name })}
                  size="xs"
                  data={[{ value: '', label: t('SupportSubscriptionNotSet') }, ...subscriptionTypes.map((s) => ({ value: s, label: s }))]}
                  value={u.subscriptionType ?? ''}
                  allowDeselect={false}
                  disabled={setUnit.isPending}
                  onChange={(v) => v !== null && v !== (u.subscriptionType ?? '') && saveUnit(u, { imei: u.imei, field: 'subscriptionType', value: v === '' ? null : (v as (typeof subscriptionTypes)[number]) })}
                  w={{ base: '100%', sm: 140 }}
                />
              ),
            },
            {
              label: t('SupportColumnFrequency'),
              cell: (u) => (
                <Select
                  aria-label={t('SupportFrequencyOf', { name: u.name })}
                  size="xs"
                  data={frequencyChangeStates.map((f) => ({ value: f, label: t(frequencyKeys[f]) }))}
                  value={u.reportFrequencyChange}
                  allowDeselect={false}
                  disabled={setUnit.isPending}
                  onChange={(v) => v && v !== u.reportFrequencyChange && saveUnit(u, { imei: u.imei, field: 'reportFrequencyChange', value: v as SupportUnit['reportFrequencyChange'] })}
                  w={{ base: '100%', sm: 200 }}
                />
              ),
            },
            {
              label: t('OrgActions'),
              cell: (u) =>
                u.lockedByName !== null ? (
                  <Button
                    size="xs"
                    loading={unlock.isPending && unlock.variables === u.imei}
                    aria-label={t('SupportUnlockNamed', { name: u.name })}
                    onClick={() =>
                      unlock.mutate(u.imei, {
                        onSuccess: () => setNotice({ ok: true, text: t('SupportUnlockDone', { name: u.name }) }),
                        onError: (e) => setNotice({ ok: false, text: errorMessage(e) }),
                      })
                    }
                  >
                    {t('SupportUnlock')}
                  </Button>
                ) : null,
            },
          ]}
        />
      ) : null}
      {units.hasNextPage ? (
        <Group>
          <Button variant="default" loading={units.isFetchingNextPage} onClick={() => void units.fetchNextPage()}>
            {t('SupportMoreUnits', { count: rows.length })}
          </Button>
        </Group>
      ) : null}
    </Section>
    </>
  );
}

function Announcements() {
  const { t } = useTranslation();
  const locale = useLocale();
  const current = useSupportAnnouncements();
  const save = useSetAnnouncement();
  const remove = useRemoveAnnouncement();
  const [subsiteId, setSubsiteId] = useState('0');
  const [lang, setLang] = useState<Language>('en');
  const [text, setText] = useState('');
  const [until, setUntil] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);

  const submit = () => {
    setNotice(null);
    if (!text.trim()) {
      setErrors({ text: 'AnnouncementTextRequired' });
      return;
    }
    const end = until ? new Date(until) : null;
    if (end && end.getTime() <= Date.now()) {
      setErrors({ until: 'AnnouncementEndInPast' });
      return;
    }
    setErrors({});
    save.mutate(
      { subsiteId: Number(subsiteId), lang, body: { text, until: end ? end.toISOString() : null } },
      {
        onSuccess: () => {
          setNotice({ ok: true, text: t('SupportAnnouncementSaved') });
          setText('');
          setUntil('');
        },
        onError: (e) => {
          const fields = e instanceof ApiError ? e.fieldErrors : {};
          const server = Object.fromEntries(['text', 'until'].flatMap((f) => (fields[f]?.[0] ? [[f, fields[f][0]]] : [])));
          if (Object.keys(server).length) setErrors(server);
          else setNotice({ ok: false, text: errorMessage(e) });
        },
      },
    );
  };

  const list = current.data?.announcements ?? [];
  return (
    <Section title={t('SupportAnnouncementsTitle')}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Group gap="sm" wrap="wrap" align="flex-start">
            <Select
              label={t('SupportBrand')}
              data={brands.map((b) => ({ value: String(b.id), label: `${b.id} · ${b.title}` }))}
              value={subsiteId}
              onChange={(v) => v && setSubsiteId(v)}
              allowDeselect={false}
              w={{ base: '100%', xs: 220 }}
            />
            <Select
              label={t('SupportLanguage')}
              data={languageOptions.map((o) => ({ value: o.value, label: o.label }))}
              value={lang}
              onChange={(v) => v && setLang(v as Language)}
              allowDeselect={false}
              w={{ base: '100%', xs: 160 }}
            />
            <DateTimeField
              label={t('SupportAnnouncementUntil')}
              value={until}
              onChange={setUntil}
              error={fieldErrorText(errors['until'])}
              w={{ base: '100%', xs: 240 }}
            />
          </Group>
          <Textarea
            label={t('SupportAnnouncementText')}
            required
            autosize
            minRows={2}
            maxLength={ANNOUNCEMENT_MAX}
            description={`${text.length}/${ANNOUNCEMENT_MAX}`}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={fieldErrorText(errors['text'])}
          />
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('SupportSaveAnnouncement')}
            </Button>
          </Group>
        </Stack>
      </form>
      <div aria-live="polite">
        {notice ? (
          <Alert color={notice.ok ? 'green' : 'red'} role={notice.ok ? 'status' : 'alert'} withCloseButton closeButtonLabel={t('OrgCancel')} onClose={() => setNotice(null)}>
            {notice.text}
          </Alert>
        ) : null}
      </div>
      <Title order={3} size="h5">
        {t('SupportCurrentAnnouncements')}
      </Title>
      {list.length === 0 ? (
        <Text c="dimmed">{t('SupportNoAnnouncements')}</Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {list.map((a) => (
            <Paper key={`${a.subsiteId}-${a.lang}`} component="li" withBorder p="xs" radius="sm">
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600}>
                    {brands[a.subsiteId]?.title ?? a.subsiteId} · {languageName(a.lang)} · {a.until ? t('SupportUntil', { when: absoluteTime(a.until, locale) }) : t('SupportUntilNone')}
                  </Text>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {a.text}
                  </Text>
                </Stack>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  aria-label={t('SupportRemoveAnnouncementNamed', { number: a.subsiteId, language: languageName(a.lang) })}
                  onClick={() =>
                    remove.mutate(
                      { subsiteId: a.subsiteId, lang: a.lang },
                      { onSuccess: () => setNotice({ ok: true, text: t('SupportAnnouncementRemoved') }), onError: (e) => setNotice({ ok: false, text: errorMessage(e) }) },
                    )
                  }
                >
                  {t('SupportRemoveAnnouncement')}
                </Button>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
    </Section>
  );
}

function SupportLog() {
  const { t } = useTranslation();
  const locale = useLocale();
  const log = useSupportLog();
  const entries = log.data?.entries ?? [];
  return (
    <Section title={t('SupportLogTitle')}>
      {log.isError ? <Alert color="red" role="alert">{errorMessage(log.error)}</Alert> : null}
      {log.data && entries.length === 0 ? <Text c="dimmed">{t('SupportLogEmpty')}</Text> : null}
      {entries.length > 0 ? (
        <ResponsiveTable
          caption={t('SupportLogTitle')}
          rows={entries}
          rowKey={(e) => e.id}
          columns={[
            { label: t('SupportColumnWhen'), cell: (e) => <Text size="sm">{absoluteTime(e.at, locale, { seconds: true })}</Text> },
            { label: t('SupportColumnWho'), cell: (e) => <Text size="sm">{e.userName}</Text> },
            {
              label: t('SupportColumnAction'),
              cell: (e) => (
                <Text size="sm">
                  {t(actionKeys[e.action])}
                  {e.accountName ? ` · ${e.accountName}` : ''}
                </Text>
              ),
            },
            { label: t('SupportColumnDetails'), cell: (e) => <Text size="sm">{e.details}</Text> },
          ]}
        />
      ) : null}
    </Section>
  );
}

export function SupportPage() {
  const [accountId, setAccountId] = useState<string | null>(null);
  return (
    <Stack gap="md" maw={1100}>
      <FindAccount chosen={accountId} onChoose={(a) => setAccountId(a.accountId)} onSearch={() => setAccountId(null)} />
      {accountId ? <AccountUnits key={accountId} accountId={accountId} /> : null}
      <Announcements />
      <SupportLog />
    </Stack>
  );
}
