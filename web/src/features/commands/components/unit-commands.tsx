/**
 * Device commands of the selected unit (spec sections 4, 5 and 9): DOUT1-3 and the operating mode,
 * with each command's state. The list comes from GET commands once; live `command` messages keep
 * the cached list current, and a ticking clock applies the 120-second rule between messages.
 */
import { Alert, Button, Divider, Loader, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Command, CommandStatus } from '../../../../../shared/schemas/commands';
import type { LiveMessage } from '../../../../../shared/schemas/live';
import type { RealtimeUnit } from '../../../../../shared/schemas/tracking';
import { errorMessage } from '../../../app/api-client';
import { useLiveMessages, useLiveStatus } from '../../../app/live/use-live';
import { storeCommand, unitCommandsQueryKey, useUnitCommands } from '../api/unit-commands';
import { changedCommands, commandText, effectiveStatus, statusText, statusesById } from '../command-state';
import { RecentCommands, useCommandText } from './command-status';
import { DoutControls } from './dout-controls';
import { OperatingModeControl } from './operating-mode-control';
import { LockedOrFailed } from '../../unit-lock/components/tracker-locked';

/** Epoch ms, every second while a command awaits its answer (elapsed seconds, the 120 s rule), else every 30 s. */
function useNow(fast: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), fast ? 1000 : 30_000);
    return () => clearInterval(timer);
  }, [fast]);
  return now;
}

function useLiveCommandUpdates(imei: string): void {
  const queryClient = useQueryClient();
  const status = useLiveStatus();
  // Messages sent while the channel was down (or before it first subscribed) are not replayed: ask once more.
  useEffect(() => {
    if (status === 'online') void queryClient.invalidateQueries({ queryKey: unitCommandsQueryKey(imei) });
  }, [status, imei, queryClient]);
  useLiveMessages(
    useCallback(
      (message: LiveMessage) => {
        if (message.type === 'command') storeCommand(queryClient, message.command);
      },
      [queryClient],
    ),
  );
}

/** Says each change of a command's state once, politely; the first load is not news. */
function StatusAnnouncer({ commands, now, ready }: { commands: readonly Command[]; now: number; ready: boolean }) {
  const { t } = useTranslation();
  const text = useCommandText();
  const seen = useRef<Map<string, CommandStatus> | null>(null);
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (!ready) return;
    const before = seen.current;
    seen.current = statusesById(commands, now);
    if (!before) return;
    const changed = changedCommands(before, commands, now);
    if (changed.length === 0) return;
    setMessage(
      changed
        .map((command) =>
          t('CommandAnnouncement', {
            command: text(commandText(command)),
            status: effectiveStatus(command, now) === 'pending' ? t('CommandPendingAnnouncement') : text(statusText(command, now)),
          }),
        )
        .join(' '),
    );
  }, [commands, now, ready, t, text]);
  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic>
      {message}
    </VisuallyHidden>
  );
}

function UnitCommandsPanel({ unit }: { unit: RealtimeUnit }) {
  const { t } = useTranslation();
  const recentId = useId();
  const query = useUnitCommands(unit.imei);
  useLiveCommandUpdates(unit.imei);
  const commands = query.data ?? [];
  const now = useNow(commands.some((c) => c.status === 'pending'));

  return (
    <Stack gap="lg">
      <StatusAnnouncer commands={commands} now={now} ready={query.isSuccess} />
      {query.isError ? (
        <LockedOrFailed error={query.error}>
<Alert color="red" variant="light" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(query.error)}</Text>
            <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
              {t('TryAgain')}
            </Button>
          </Stack>
        </Alert>
</LockedOrFailed>
      ) : null}
      <DoutControls unit={unit} commands={commands} now={now} />
      <Divider />
      <OperatingModeControl unit={unit} commands={commands} now={now} />
      <Divider />
      {query.isPending ? <Loader size="sm" role="progressbar" aria-label={t('Loading')} /> : <RecentCommands commands={commands.slice(0, 5)} now={now} headingId={recentId} />}
    </Stack>
  );
}

/** DOUT and operating-mode commands of one unit, shown in the map page's unit details. */
export function UnitCommands({ unit }: { unit: RealtimeUnit }) {
  // Keyed by the unit: forms and the announcer start afresh when another unit is selected.
  return <UnitCommandsPanel key={unit.imei} unit={unit} />;
}
