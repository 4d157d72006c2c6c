import { type BoxProps, ActionIcon, Alert, Box, Button, Chip, CloseButton, EmptyState, Group, SegmentedControl, Slider, Stack, Text, Title, UnstyledButton, VisuallyHidden } from '@mantine/core';
import IconAlertCircle from '@tabler/icons-react/dist/esm/icons/IconAlertCircle.mjs';
import IconInfoCircle from '@tabler/icons-react/dist/esm/icons/IconInfoCircle.mjs';
import IconMapPinOff from '@tabler/icons-react/dist/esm/icons/IconMapPinOff.mjs';
import IconPlayerPauseFilled from '@tabler/icons-react/dist/esm/icons/IconPlayerPauseFilled.mjs';
import IconPlayerPlayFilled from '@tabler/icons-react/dist/esm/icons/IconPlayerPlayFilled.mjs';
import IconPlayerTrackNextFilled from '@tabler/icons-react/dist/esm/icons/IconPlayerTrackNextFilled.mjs';
import IconPlayerTrackPrevFilled from '@tabler/icons-react/dist/esm/icons/IconPlayerTrackPrevFilled.mjs';
import { useId, useState, type CSSProperties, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { HISTORY_MAX_DAYS } from '../../../../../shared/schemas/tracking';
import { browserTimeZone, errorMessage } from '../../../app/api-client';
import { fieldErrorText } from '../../../ui/form-errors';
import { useHistoryFormat } from '../format';
import { periodPresets, SPEED_FACTORS, type PeriodPreset, type SpeedFactor } from '../playback';
import { DEFAULT_TIME_TILL_PARKED_MINUTES } from '../stops';
import type { HistoryPlayback } from '../use-history-playback';
import { SpeedChart } from './speed-chart';
import { stopTexts } from './stop-texts';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';
import { DateTimeField } from '../../../ui/date-fields';

const presetLabels: Readonly<Record<PeriodPreset, string>> = {
  lastHour: 'HistoryLastHour',
  today: 'HistoryToday',
  yesterday: 'HistoryYesterday',
  last7Days: 'HistoryLast7Days',
  custom: 'HistoryCustom',
};

const isPreset = (value: string): value is PeriodPreset => (periodPresets as readonly string[]).includes(value);

/**
 * The side panel of history playback: the period, then play, the speed chart, scrub and playback
 * speed over the route, then the stops.
 */
export function HistoryPanel({ playback, onClose }: { playback: HistoryPlayback; onClose: () => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const periodLabelId = useId();
  const formId = useId();
  const format = useHistoryFormat();
  const { period, periodErrors, status, unit, requested } = playback;
  const fieldErrorShown = Boolean(periodErrors.from || periodErrors.to);

  // Once a period is loaded the form folds away to one line, so that the playback controls stay in
  // view beside the map (on a phone the panel is a sheet over half of it).
  const [editing, setEditing] = useState(false);
  const [shownRequest, setShownRequest] = useState(requested);
  if (shownRequest !== requested) {
    setShownRequest(requested);
    setEditing(false);
  }
  // A period the server refused stays open with its field errors.
  const formOpen = editing || requested === null || fieldErrorShown;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    playback.load();
  };

  return (
    <Stack component="section" aria-labelledby={headingId} gap="md">
      {/* Under the unit's own heading in the side panel, which names the unit. */}
      <Group justify="space-between" wrap="nowrap">
        <Title order={3} size="h5" id={headingId}>
          {t('HistoryHeading')}
        </Title>
        <CloseButton aria-label={t('CloseHistory')} onClick={onClose} />
      </Group>

      {requested ? (
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="sm" style={{ minWidth: 0 }}>
            {format.range(requested.from, requested.to)}
          </Text>
          <Button variant="subtle" size="compact-sm" style={{ flexShrink: 0 }} aria-expanded={formOpen} aria-controls={formId} onClick={() => setEditing(!formOpen)}>
            {t('HistoryChangePeriod')}
          </Button>
        </Group>
      ) : null}

      <form onSubmit={submit} noValidate id={formId} hidden={!formOpen}>
        <Stack gap="sm">
          <div>
            <Text component="span" size="sm" fw={500} id={periodLabelId}>
              {t('HistoryPeriod')}
            </Text>
            <Chip.Group value={period.preset} onChange={(value) => typeof value === 'string' && isPreset(value) && playback.choosePreset(value)}>
              <Group gap="xs" mt={4} role="radiogroup" aria-labelledby={periodLabelId}>
                {periodPresets.map((preset) => (
                  <Chip key={preset} value={preset} name={`${periodLabelId}-preset`} size="sm">
                    {t(presetLabels[preset])}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
          </div>
          <Stack gap="xs">
            <DateTimeField
              label={t('HistoryFrom')}
              value={period.from}
              onChange={playback.setFrom}
              error={fieldErrorText(periodErrors.from)}
              required
            />
            <DateTimeField
              label={t('HistoryTo')}
              value={period.to}
              onChange={playback.setTo}
              error={fieldErrorText(periodErrors.to)}
              required
            />
          </Stack>
          <Text size="xs" c="dimmed">
            {t('HistoryPeriodHint', { zone: browserTimeZone(), days: HISTORY_MAX_DAYS })}
          </Text>
          <Button type="submit" loading={status === 'loading'} disabled={!unit}>
            {t('HistoryLoad')}
          </Button>
        </Stack>
      </form>

      {status === 'error' && !fieldErrorShown ? (
        <LockedOrFailed error={playback.error}>
<Alert variant="light" color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          {errorMessage(playback.error)}
        </Alert>
</LockedOrFailed>
      ) : null}

      <HistoryStatus playback={playback} />
      {status === 'ready' && playback.positions.length > 0 ? (
        <>
          <PlaybackControls playback={playback} />
          <StopList playback={playback} />
        </>
      ) : null}
    </Stack>
  );
}

/** What the last load brought, announced to screen readers. */
function HistoryStatus({ playback }: { playback: HistoryPlayback }) {
  const { t } = useTranslation();
  const { status, positions } = playback;
  return (
    <div role="status" aria-live="polite">
      {status === 'loading' ? (
        <Text size="sm">{t('HistoryLoading')}</Text>
      ) : status === 'ready' && positions.length === 0 ? (
        <EmptyState size="sm" icon={<IconMapPinOff aria-hidden />} title={t('HistoryNoPositions')} description={t('HistoryNoPositionsHint')} />
      ) : status === 'ready' ? (
        <Stack gap="xs">
          <Text size="sm">{t('HistoryPointCount', { count: positions.length })}</Text>
          {playback.truncated ? (
            <Alert variant="light" color="yellow" icon={<IconInfoCircle aria-hidden />}>
              {t('PositionsTruncated')}
            </Alert>
          ) : null}
        </Stack>
      ) : null}
    </div>
  );
}

function PlaybackControls({ playback }: { playback: HistoryPlayback }) {
  const { t } = useTranslation();
  const format = useHistoryFormat();
  const speedLabelId = useId();
  const { positions, index, current, playing } = playback;
  // While the chart is pointed at, the readings tell the moment the marker shows.
  const shownIndex = playback.previewIndex ?? index;
  const last = positions.length - 1;
  const timeOf = (i: number) => {
    const p = positions[i];
    return p ? format.time(Date.parse(p.ts)) : '';
  };

  return (
    <Stack gap="sm">
      <Group gap="xs" wrap="nowrap">
        <ActionIcon variant="default" size="lg" aria-label={t('HistoryPreviousPoint')} disabled={index <= 0} onClick={() => playback.seek(index - 1)}>
          <IconPlayerTrackPrevFilled size={18} aria-hidden />
        </ActionIcon>
        {playing ? (
          <ActionIcon size="xl" radius="xl" aria-label={t('HistoryPause')} onClick={playback.pause}>
            <IconPlayerPauseFilled size={22} aria-hidden />
          </ActionIcon>
        ) : (
          <ActionIcon size="xl" radius="xl" aria-label={t('HistoryPlay')} disabled={last < 1} onClick={playback.play}>
            <IconPlayerPlayFilled size={22} aria-hidden />
          </ActionIcon>
        )}
        <ActionIcon variant="default" size="lg" aria-label={t('HistoryNextPoint')} disabled={index >= last} onClick={() => playback.seek(index + 1)}>
          <IconPlayerTrackNextFilled size={18} aria-hidden />
        </ActionIcon>
        <Reading label={t('HistoryPoint')} value={t('HistoryPointOf', { index: shownIndex + 1, count: positions.length })} ml="auto" ta="right" />
      </Group>

      <SpeedChart playback={playback} />

      <Slider
        min={0}
        max={Math.max(last, 1)}
        step={1}
        value={index}
        onChange={playback.seek}
        disabled={last < 1}
        label={timeOf}
        thumbLabel={t('HistoryScrub')}
        thumbValueText={timeOf}
      />

      <Group gap="md" wrap="nowrap" align="flex-start">
        <Reading label={t('HistoryTime')} value={current ? format.time(current.time) : ''} style={{ flex: 1 }} />
        <Reading label={t('HistorySpeed')} value={format.speed(current?.speed ?? null)} ta="right" />
      </Group>

      <div>
        <Text component="span" size="sm" fw={500} id={speedLabelId}>
          {t('HistoryPlaybackSpeed')}
        </Text>
        <SegmentedControl
          mt={4}
          fullWidth
          size="xs"
          aria-labelledby={speedLabelId}
          value={String(playback.speed)}
          onChange={(value) => playback.setSpeed(Number(value) as SpeedFactor)}
          data={SPEED_FACTORS.map((factor) => ({ value: String(factor), label: `${factor}×` }))}
        />
        <Text size="xs" c="dimmed" mt={4}>
          {t('HistorySpeedHint')}
        </Text>
      </div>
    </Stack>
  );
}

/** Where the unit stood still, each entry moving playback there and opening the stop on the map. */
function StopList({ playback }: { playback: HistoryPlayback }) {
  const { t } = useTranslation();
  const format = useHistoryFormat();
  const headingId = useId();
  const { stops, openStop } = playback;
  const minutes = DEFAULT_TIME_TILL_PARKED_MINUTES;
  return (
    <Stack component="section" aria-labelledby={headingId} gap={4}>
      <Title order={4} size="h6" id={headingId}>
        {t('HistoryStops')}
      </Title>
      <Text size="xs" c="dimmed">
        {stops.length > 0 ? t('HistoryStopsHint', { minutes }) : t('HistoryNoStops', { minutes })}
      </Text>
      {stops.length > 0 ? (
        <ol className="history-stops">
          {stops.map((stop, i) => {
            const texts = stopTexts(stop, i + 1, format, t);
            return (
              <li key={stop.first}>
                {/* The name is the spoken label, from the content (not aria-label): its words hold the visible ones. */}
                <UnstyledButton
                  className="history-stop"
                  data-open={openStop === i}
                  onClick={() => {
                    playback.preview(null);
                    playback.seek(stop.first);
                    playback.setOpenStop(i);
                  }}
                >
                  <VisuallyHidden>{texts.label}</VisuallyHidden>
                  <span className="history-stop-number" aria-hidden>
                    {i + 1}
                  </span>
                  <span className="history-stop-when" aria-hidden>
                    {texts.period}
                  </span>
                  <span className="history-stop-duration" aria-hidden>
                    {texts.duration}
                  </span>
                </UnstyledButton>
              </li>
            );
          })}
        </ol>
      ) : null}
    </Stack>
  );
}

function Reading({ label, value, ...box }: { label: string; value: string } & BoxProps & { style?: CSSProperties }) {
  return (
    <Box {...box}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500}>
        {value}
      </Text>
    </Box>
  );
}
