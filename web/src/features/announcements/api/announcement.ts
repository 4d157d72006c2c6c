import { useQuery } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import type { Language } from '../../../../../shared/schemas/common';
import { announcementSchema } from '../../../../../shared/schemas/system';
import { apiRequest } from '../../../app/api-client';

/** The announcement bar text for this brand and language, null when there is none. */
export function useAnnouncement(lang: Language, subsiteID: number) {
  return useQuery({
    queryKey: ['announcement', subsiteID, lang],
    queryFn: ({ signal }) =>
      apiRequest(routes.getAnnouncement.method, routes.getAnnouncement.path, {
        body: { lang, subsiteID },
        schema: announcementSchema,
        signal,
      }),
    staleTime: 5 * 60_000,
    select: (data) => data.text,
  });
}
