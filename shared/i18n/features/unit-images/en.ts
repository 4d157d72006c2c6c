/** English texts of the unit pictures (the unit editor's object description); merged into the flat key space (shared/i18n/index.ts). */
export const unitImagesEn = {
  // Message keys of the API (shared/schemas/unit-images.ts unitImageMessageKeys).
  ImageTypeNotAllowed: 'Only PNG and JPG pictures can be uploaded.',
  ImageTooLarge: 'A picture can be at most 1 MB.',
  ImageEmpty: 'The file is empty.',
  ImageFileNameRequired: 'The file has no name.',
  ImageFileNameTooLong: 'The file name can be at most 200 characters.',
  TooManyImages: 'A unit can have at most 5 pictures. Delete one to add another.',
  ImageNotFound: 'The picture could not be found.',
  ImageNotUploaded: 'The picture did not reach the server. Try again.',
  // The pictures section (web/src/features/unit-images).
  unitImagesTitle: 'Pictures',
  unitImagesHelp: 'Up to {{max}} pictures, PNG or JPG, at most 1 MB each.',
  unitImagesCount: '{{count}} of {{max}} pictures',
  unitImagesNone: 'No pictures yet.',
  unitImagesAdd: 'Add picture',
  unitImagesUploading: 'Uploading {{name}}…',
  unitImagesUploaded: 'The picture was added.',
  unitImagesUploadFailed: 'The picture could not be uploaded. Try again.',
  unitImagesAlt: 'Picture {{index}} of {{unit}}',
  unitImagesOpen: 'Open picture {{index}} in full size',
  unitImagesDelete: 'Delete picture {{index}}',
  unitImagesDeleteTitle: 'Delete the picture?',
  unitImagesDeleteText: 'Picture {{index}} of {{unit}} will be removed for good.',
  unitImagesDeleteConfirm: 'Delete',
  unitImagesDeleteCancel: 'Cancel',
  unitImagesDeleted: 'The picture was deleted.',
  unitImagesLoadFailed: 'The pictures could not be loaded.',
  unitImagesFull: 'The unit has its 5 pictures.',
  unitImagesClose: 'Close',
} as const;
export type UnitImagesMessages = { readonly [K in keyof typeof unitImagesEn]: string };
