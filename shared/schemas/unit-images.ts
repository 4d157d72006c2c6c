/**
 * Pictures of a unit (the object description of boats, cars and water jets: spec sections 3, 5 and
 * 9): at most MAX_UNIT_IMAGES per unit, PNG or JPEG, at most MAX_IMAGE_BYTES each. The browser
 * declares a file (name, type, size), gets an upload target for exactly those bytes, uploads them
 * there and confirms; the server then reads the stored bytes and keeps the picture only when they
 * really are a PNG or a JPEG (by their first bytes, never by the name or the declared type) within
 * the size. Validation messages are message keys (shared/i18n/features/unit-images).
 */
import { z } from 'zod';
import { imeiParamSchema } from './tracking';

export const unitImageMessageKeys = {
  /** Not a PNG or a JPEG: by the declared type, the name's extension or the stored bytes. */
  ImageTypeNotAllowed: 'ImageTypeNotAllowed',
  ImageTooLarge: 'ImageTooLarge',
  ImageEmpty: 'ImageEmpty',
  ImageFileNameRequired: 'ImageFileNameRequired',
  ImageFileNameTooLong: 'ImageFileNameTooLong',
  /** The unit has its MAX_UNIT_IMAGES pictures (uploads under way count). */
  TooManyImages: 'TooManyImages',
  ImageNotFound: 'ImageNotFound',
  /** Confirmed before the bytes were uploaded (409). */
  ImageNotUploaded: 'ImageNotUploaded',
} as const;
const keys = unitImageMessageKeys;

export const MAX_UNIT_IMAGES = 5;
/** 1 MB: 1,048,576 bytes. */
export const MAX_IMAGE_BYTES = 1024 * 1024;
export const IMAGE_FILE_NAME_MAX = 200;
export const imageContentTypes = ['image/png', 'image/jpeg'] as const;
export type ImageContentType = (typeof imageContentTypes)[number];
/** What a file picker offers (the `accept` attribute). */
export const IMAGE_ACCEPT = 'image/png,image/jpeg,.png,.jpg,.jpeg';
const IMAGE_EXTENSION = /\.(png|jpe?g)$/i;

/**
 * The type of an image by its first bytes (PNG's 8-byte signature, JPEG's SOI marker followed by a
 * marker), or null for anything else. 8 bytes are enough.
 */
export function sniffImageType(head: Uint8Array): ImageContentType | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= png.length && png.every((b, i) => head[i] === b)) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  return null;
}
export const SNIFF_BYTES = 8;

/** The file the browser is about to upload. */
export const imageUploadRequestSchema = z.object({
  fileName: z
    .string({ message: keys.ImageFileNameRequired })
    .trim()
    .min(1, { message: keys.ImageFileNameRequired, abort: true })
    .max(IMAGE_FILE_NAME_MAX, { message: keys.ImageFileNameTooLong, abort: true })
    .regex(IMAGE_EXTENSION, keys.ImageTypeNotAllowed),
  contentType: z.enum(imageContentTypes, { message: keys.ImageTypeNotAllowed }),
  size: z.number({ message: keys.ImageEmpty }).int(keys.ImageEmpty).min(1, keys.ImageEmpty).max(MAX_IMAGE_BYTES, keys.ImageTooLarge),
});
export type ImageUploadRequest = z.infer<typeof imageUploadRequestSchema>;

/**
 * Where to send the bytes: one request with `method` to `url` carrying `headers` and exactly the
 * declared bytes as its body (S3 on AWS, the embedded runtime's own file route locally: a
 * relative URL on the page's origin).
 */
export const uploadTargetSchema = z.object({
  url: z.string().min(1),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()),
});
export type UploadTarget = z.infer<typeof uploadTargetSchema>;

export const imageUploadSchema = z.object({
  id: z.string(),
  upload: uploadTargetSchema,
  /** The upload (and the confirmation) must happen before this time; the slot is free again after. */
  expiresAt: z.iso.datetime(),
});
export type ImageUpload = z.infer<typeof imageUploadSchema>;

export const unitImageSchema = z.object({
  id: z.string(),
  contentType: z.enum(imageContentTypes),
  size: z.number().int().positive(),
  uploadedAt: z.iso.datetime(),
  /** A short-lived URL that shows the picture (about 15 minutes). */
  url: z.string().min(1),
});
export type UnitImage = z.infer<typeof unitImageSchema>;

export const unitImageListSchema = z.object({
  images: z.array(unitImageSchema),
  max: z.number().int(),
  maxBytes: z.number().int(),
});
export type UnitImageList = z.infer<typeof unitImageListSchema>;

export const IMAGE_ID_PATTERN = /^[A-Za-z0-9_-]{16,40}$/;
export const unitImageParamsSchema = imeiParamSchema.extend({
  id: z.string().regex(IMAGE_ID_PATTERN, keys.ImageNotFound),
});
