/**
 * A unit's pictures (the unit editor's object description, spec sections 3, 5 and 9): thumbnails
 * that open the full picture, "Add picture" with the browser's own check of type, content and size
 * (the server checks again), delete after a confirmation, and "n of 5". Its texts load with it, so
 * it works wherever it is mounted.
 */
import { ActionIcon, Alert, Anchor, Badge, Button, FileButton, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { ConfirmDeleteModal } from '../../../ui/confirm-delete-modal';
import { notifications } from '@mantine/notifications';
import IconPhotoPlus from '@tabler/icons-react/dist/esm/icons/IconPhotoPlus.mjs';
import IconTrash from '@tabler/icons-react/dist/esm/icons/IconTrash.mjs';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IMAGE_ACCEPT, MAX_UNIT_IMAGES, type UnitImage } from '../../../../../shared/schemas/unit-images';
import { errorMessage } from '../../../app/api-client';
import { loadFeatureMessages } from '../../../i18n/i18n';
import { useUnits } from '../../units/api/units';
import { useAddUnitImage, useDeleteUnitImage, useUnitImages } from '../api/unit-image-api';

export function UnitImages({ imei }: { imei: string }) {
  const { i18n } = useTranslation();
  const texts = useQuery({
    queryKey: ['feature-texts', 'unit-images', i18n.language],
    queryFn: () => loadFeatureMessages('unit-images').then(() => true),
    staleTime: Infinity,
    // A language switch loads the feature's texts before it changes language: keep the panel (and its state) meanwhile.
    placeholderData: (previous) => previous,
  });
  if (!texts.data) return <Loader size="sm" aria-label="…" />;
  return <UnitImagesPanel imei={imei} />;
}

function UnitImagesPanel({ imei }: { imei: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const images = useUnitImages(imei);
  const units = useUnits();
  const add = useAddUnitImage(imei);
  const remove = useDeleteUnitImage(imei);
  const [uploading, setUploading] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<{ image: UnitImage; index: number } | null>(null);

  const unit = units.data?.find((u) => u.imei === imei)?.name || imei;
  const list = images.data?.images ?? [];
  const max = images.data?.max ?? MAX_UNIT_IMAGES;
  const full = list.length >= max;

  const upload = (file: File | null) => {
    if (!file) return;
    setUploading(file.name);
    add.mutate(file, {
      onSuccess: () => notifications.show({ color: 'green', message: t('unitImagesUploaded'), closeButtonProps: { 'aria-label': t('unitImagesClose') } }),
      onSettled: () => setUploading(null),
    });
  };

  return (
    <Stack gap="sm" data-testid="unit-images">
      <Group justify="space-between" align="center" wrap="wrap" gap="xs">
        <Group gap="xs" align="center">
          <Text fw={600} id={headingId}>
            {t('unitImagesTitle')}
          </Text>
          <Badge variant="light" data-testid="unit-images-count">
            {t('unitImagesCount', { count: list.length, max })}
          </Badge>
        </Group>
        <FileButton onChange={upload} accept={IMAGE_ACCEPT} disabled={full || add.isPending}>
          {(props) => (
            <Button {...props} leftSection={<IconPhotoPlus size={16} aria-hidden />} loading={add.isPending} disabled={full || add.isPending} variant="light">
              {t('unitImagesAdd')}
            </Button>
          )}
        </FileButton>
      </Group>
      <Text size="sm" c="dimmed">
        {full ? t('unitImagesFull') : t('unitImagesHelp', { max })}
      </Text>
      <div aria-live="polite">
        {uploading ? (
          <Text size="sm" role="status">
            {t('unitImagesUploading', { name: uploading })}
          </Text>
        ) : null}
      </div>
      {add.isError ? (
        <Alert color="red" role="alert" withCloseButton onClose={() => add.reset()} closeButtonLabel={t('unitImagesClose')}>
          {errorMessage(add.error)}
        </Alert>
      ) : null}
      {images.isError ? (
        <Alert color="red" role="alert">
          {t('unitImagesLoadFailed')}
        </Alert>
      ) : images.isPending ? (
        <Loader size="sm" aria-label={t('unitImagesTitle')} />
      ) : list.length === 0 ? (
        <Text size="sm">{t('unitImagesNone')}</Text>
      ) : (
        <SimpleGrid component="ul" aria-labelledby={headingId} cols={{ base: 2, xs: 3, md: 5 }} spacing="sm" m={0} p={0} style={{ listStyle: 'none' }}>
          {list.map((image, i) => {
            const index = i + 1;
            return (
              <li key={image.id} style={{ position: 'relative' }}>
                <Anchor href={image.url} target="_blank" rel="noopener noreferrer" aria-label={t('unitImagesOpen', { index })} display="block">
                  <img
                    src={image.url}
                    alt={t('unitImagesAlt', { index, unit })}
                    loading="lazy"
                    style={{ display: 'block', width: '100%', aspectRatio: '4 / 3', objectFit: 'cover', borderRadius: 'var(--mantine-radius-sm)', background: 'var(--mantine-color-gray-1)' }}
                  />
                </Anchor>
                <ActionIcon
                  variant="filled"
                  color="red.8"
                  size="lg"
                  aria-label={t('unitImagesDelete', { index })}
                  onClick={() => setDeleting({ image, index })}
                  style={{ position: 'absolute', top: 6, right: 6 }}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </li>
            );
          })}
        </SimpleGrid>
      )}
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('unitImagesDeleteTitle')}
        message={t('unitImagesDeleteText', { index: deleting?.index ?? 0, unit })}
        confirmLabel={t('unitImagesDeleteConfirm')}
        cancelLabel={t('unitImagesDeleteCancel')}
        closeLabel={t('unitImagesDeleteCancel')}
        pending={remove.isPending}
        error={remove.isError ? errorMessage(remove.error) : null}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.image.id, {
            onSuccess: () => {
              setDeleting(null);
              notifications.show({ color: 'green', message: t('unitImagesDeleted'), closeButtonProps: { 'aria-label': t('unitImagesClose') } });
            },
          })
        }
        confirmTestId="unit-image-delete-confirm"
      />
    </Stack>
  );
}
