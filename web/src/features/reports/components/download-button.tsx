/**
 * The link of a done export: the portal link needs the login, so the file is fetched with the
 * session (following the link's redirect to the file) and saved under the name the answer gives.
 */
import { Anchor, Group, Text } from '@mantine/core';
import IconDownload from '@tabler/icons-react/dist/esm/icons/IconDownload.mjs';
import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../../app/api-client';
import { apiDownload } from '../../../app/api-download';

/** Saves a blob as a file the way a download link would. */
function save(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click has been handled.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}

export function DownloadButton({ url, label, fallbackName }: { url: string; label: string; fallbackName: string }) {
  const download = useMutation({
    mutationFn: () => apiDownload(url),
    onSuccess: ({ blob, name }) => save(blob, name ?? fallbackName),
  });
  return (
    <div>
      <Group gap="xs" wrap="nowrap">
        <IconDownload size={18} aria-hidden />
        <Anchor component="button" type="button" fw={600} onClick={() => download.mutate()} disabled={download.isPending} aria-busy={download.isPending} data-testid="report-download">
          {label}
        </Anchor>
      </Group>
      {download.isError ? (
        <Text size="sm" c="red" role="alert">
          {errorMessage(download.error)}
        </Text>
      ) : null}
    </div>
  );
}
