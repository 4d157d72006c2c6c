/**
 * Pictures of a unit (spread into the manifest, shared/routes.ts): declare a file and get an upload
 * target, upload, confirm, list with short-lived URLs, delete. On AWS the bytes go to S3 through
 * presigned URLs; the embedded runtime's HTTP server plays S3 with signed URLs of its own
 * (infra/local/http-server.ts `files`).
 */
import { z } from 'zod';
import { defineRoute } from '../route-def';
import { imeiParamSchema } from '../schemas/tracking';
import {
  imageUploadRequestSchema,
  imageUploadSchema,
  unitImageListSchema,
  unitImageParamsSchema,
  unitImageSchema,
} from '../schemas/unit-images';

const nothing = z.null();

export const unitImageRoutes = {
  getUnitImages: defineRoute({
    operationId: 'getUnitImages',
    method: 'GET',
    path: '/api/v1/user/units/{imei}/images',
    capability: 'units',
    file: 'images/get-unit-images',
    access: 'member',
    summary: "The unit's pictures (uploaded and confirmed), oldest first, each with a URL valid for about 15 minutes. A unit the caller cannot see: 404.",
    params: imeiParamSchema,
    response: unitImageListSchema,
  }),
  createUnitImageUpload: defineRoute({
    operationId: 'createUnitImageUpload',
    method: 'POST',
    path: '/api/v1/user/units/{imei}/images',
    capability: 'units',
    file: 'images/post-unit-image',
    access: 'member',
    summary:
      'Reserves one of the unit\'s 5 picture slots for 15 minutes and answers where to PUT exactly `size` bytes of `contentType` (201). PNG or JPEG by type and name (ImageTypeNotAllowed), 1..1,048,576 bytes (ImageEmpty, ImageTooLarge), a name of at most 200 characters (ImageFileNameRequired, ImageFileNameTooLong); 5 pictures or uploads under way: 422 errors.file TooManyImages.',
    params: imeiParamSchema,
    body: imageUploadRequestSchema,
    response: imageUploadSchema,
  }),
  confirmUnitImage: defineRoute({
    operationId: 'confirmUnitImage',
    method: 'POST',
    path: '/api/v1/user/units/{imei}/images/{id}/confirm',
    capability: 'units',
    file: 'images/post-unit-image-confirm',
    access: 'member',
    summary:
      'Checks the uploaded bytes and keeps the picture: a stored file that is not a PNG or JPEG by its first bytes (422 errors.file ImageTypeNotAllowed) or larger than 1 MB (ImageTooLarge) is deleted with its slot. Nothing uploaded yet: 409 ImageNotUploaded. Confirming again answers the picture.',
    params: unitImageParamsSchema,
    response: unitImageSchema,
  }),
  deleteUnitImage: defineRoute({
    operationId: 'deleteUnitImage',
    method: 'DELETE',
    path: '/api/v1/user/units/{imei}/images/{id}',
    capability: 'units',
    file: 'images/delete-unit-image',
    access: 'member',
    summary: 'Deletes a picture (or an upload under way) and its file; 404 ImageNotFound for one the caller cannot see.',
    params: unitImageParamsSchema,
    response: nothing,
  }),
} as const;
