import { Box } from '@mantine/core';
import { Outlet } from 'react-router';
import { MAIN_CONTENT_ID } from '../../ui/skip-link';

/** `/user/alerts`: a logged-in page without header or menu. */
export function BareLayout() {
  return (
    <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} p="md" mih="100dvh">
      <Outlet />
    </Box>
  );
}
