/**
 * The unit pictures' calls (docs/api.md Unit pictures): the list, adding one (declare, upload the
 * bytes to the target the server answers, confirm) and delete. The upload goes to S3 on AWS and to
 * the embedded runtime's file route locally; neither is our API, so it is a plain request that
 * carries no token.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routes } from '../../../../../shared/routes';
import {
  imageContentTypes,
  imageUploadSchema,
  MAX_IMAGE_BYTES,
  SNIFF_BYTES,
  sniffImageType,
  unitImageListSchema,
  unitImageMessageKeys as keys,
  unitImageSchema,
  type ImageContentType,
} from '../../../../../shared/schemas/unit-images';
import { apiRequest, ApiError } from '../../../app/api-client';
import { translateMessage } from '../../../i18n/i18n';
import { withParams } from '../../triplog/api/trip-paths';

const imagesKey = (imei: string) => ['unit-images', imei] as const;
/** View URLs last about 15 minutes: the list is fetched again well before. */
const REFRESH_MS = 10 * 60_000;

export function useUnitImages(imei: string) {
  return useQuery({
    queryKey: imagesKey(imei),
    queryFn: ({ signal }) => apiRequest('GET', withParams(routes.getUnitImages.path, { imei }), { schema: unitImageListSchema, signal }),
    refetchInterval: REFRESH_MS,
  });
}

/** A refusal decided in the browser, shaped like the server's 422 for the same rule. */
function refused(key: string): ApiError {
  return new ApiError(422, translateMessage(key), key, { file: [key] });
}

/** The file's type as the server will decide it: by its first bytes (a renamed file is refused here already). */
export async function checkImageFile(file: Blob & { name: string }): Promise<ImageContentType> {
  if (file.size === 0) throw refused(keys.ImageEmpty);
  if (file.size > MAX_IMAGE_BYTES) throw refused(keys.ImageTooLarge);
  if (!/\.(png|jpe?g)$/i.test(file.name) || !(imageContentTypes as readonly string[]).includes(file.type)) throw refused(keys.ImageTypeNotAllowed);
  const head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  const type = sniffImageType(head);
  if (!type) throw refused(keys.ImageTypeNotAllowed);
  return type;
}

export function useAddUnitImage(imei: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      await checkImageFile(file);
      const base = withParams(routes.createUnitImageUpload.path, { imei });
      const reserved = await apiRequest('POST', base, {
        body: { fileName: file.name, contentType: file.type, size: file.size },
        schema: imageUploadSchema,
      });
      const uploaded = await fetch(reserved.upload.url, { method: reserved.upload.method, headers: reserved.upload.headers, body: file }).then(
        (res) => res.ok,
        () => false,
      );
      if (!uploaded) {
        // Frees the slot at once rather than when the reservation lapses.
        await apiRequest('DELETE', withParams(routes.deleteUnitImage.path, { imei, id: reserved.id })).catch(() => undefined);
        throw new ApiError(0, translateMessage('unitImagesUploadFailed'), 'unitImagesUploadFailed');
      }
      return apiRequest('POST', withParams(routes.confirmUnitImage.path, { imei, id: reserved.id }), { schema: unitImageSchema });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: imagesKey(imei) }),
  });
}

export function useDeleteUnitImage(imei: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', withParams(routes.deleteUnitImage.path, { imei, id })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: imagesKey(imei) }),
  });
}
