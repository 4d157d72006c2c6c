import { describe, expect, it } from 'vitest';
import { MAX_IMAGE_BYTES } from '../../../../../shared/schemas/unit-images';
import { ApiError } from '../../../app/api-client';
import { checkImageFile } from './unit-image-api';

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const file = (bytes: Uint8Array | number[], name: string, type: string) => new File([new Uint8Array(bytes)], name, { type });
const keyOf = async (f: File) => {
  try {
    await checkImageFile(f);
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).fieldErrors).toEqual({ file: [(error as ApiError).key] });
    return (error as ApiError).key;
  }
};

describe("the browser's check of a picture", () => {
  it('accepts a PNG and a JPEG by their first bytes', async () => {
    expect(await checkImageFile(file([...PNG_HEAD, 1, 2], 'boat.png', 'image/png'))).toBe('image/png');
    expect(await checkImageFile(file([0xff, 0xd8, 0xff, 0xe1, 0], 'Boat.JPG', 'image/jpeg'))).toBe('image/jpeg');
  });

  it('refuses with the server keys: a renamed non-image, another type, an empty file, more than 1 MB', async () => {
    expect(await keyOf(file(new TextEncoder().encode('not a picture at all'), 'boat.png', 'image/png'))).toBe('ImageTypeNotAllowed');
    expect(await keyOf(file([0x47, 0x49, 0x46, 0x38, 0x39, 0x61], 'boat.gif', 'image/gif'))).toBe('ImageTypeNotAllowed');
    expect(await keyOf(file(PNG_HEAD, 'boat.webp', 'image/png'))).toBe('ImageTypeNotAllowed');
    expect(await keyOf(file([], 'boat.png', 'image/png'))).toBe('ImageEmpty');
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG_HEAD);
    expect(await keyOf(file(big, 'boat.png', 'image/png'))).toBe('ImageTooLarge');
    const limit = new Uint8Array(MAX_IMAGE_BYTES);
    limit.set(PNG_HEAD);
    expect(await keyOf(file(limit, 'boat.png', 'image/png'))).toBe('accepted');
  });
});
