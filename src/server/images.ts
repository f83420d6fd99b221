import type sharpFunction from 'sharp';
import type { SharpOptions } from 'sharp';
import { MAX_UPLOAD_PIXELS } from '../shared/constants';

// Whether bytes are an image sharp can decode whole: judging by the first
// bytes alone let a PNG signature followed by garbage be stored, and every later render of it fail.
// Used by the upload route before storing and by the mockup generator before rendering.

/**
 * sharp, loaded on first use: its native library added a tenth of a second or more to every
 * start-up, and a store whose images all have their display copies needs it only for new ones.
 */
let loadingSharp: Promise<typeof sharpFunction> | undefined;
export const loadSharp = () => (loadingSharp ??= import('sharp').then((module) => module.default));

/**
 * Options for every sharp pipeline that reads a stored or uploaded image: refuse more pixels than
 * an upload may have, and stop at damaged or cut-off pixel data instead of decoding what is left.
 */
export const IMAGE_INPUT: SharpOptions = { limitInputPixels: MAX_UPLOAD_PIXELS, failOn: 'error' };

export type ImageProblem = 'unreadable' | 'too-many-pixels';

/** null when the bytes decode as one image of at most MAX_UPLOAD_PIXELS pixels, else what is wrong. */
export async function imageProblem(bytes: Uint8Array): Promise<ImageProblem | null> {
  const sharp = await loadSharp();
  let width: number;
  let height: number;
  try {
    // The header alone: a small file declaring a huge image is refused before it is decoded.
    ({ width, height } = await sharp(bytes, { limitInputPixels: false }).metadata());
  } catch {
    return 'unreadable';
  }
  if (width * height > MAX_UPLOAD_PIXELS) return 'too-many-pixels';
  try {
    // Every pixel, through a sink that keeps no copy of the decoded image.
    await sharp(bytes, { ...IMAGE_INPUT, sequentialRead: true }).stats();
  } catch {
    return 'unreadable';
  }
  return null;
}
