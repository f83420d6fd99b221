import zlib from 'node:zlib';

/**
 * A PNG's bytes with the width and height in its header changed (and the header's CRC made right
 * again): a small file that declares a huge image, as a decompression bomb does.
 */
export function pngDeclaringSize(png: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(png);
  // Signature (8), IHDR length (4), "IHDR" (4), then width and height; the CRC covers type and data.
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(zlib.crc32(out.subarray(12, 29)), 29);
  return out;
}

/**
 * What a magic-bytes check alone once let through: a PNG's signature and header chunk (enough for a magic-bytes check
 * to say PNG), then garbage where the pixel data should be.
 */
export function pngHeaderThenGarbage(png: Buffer): Buffer {
  // Signature (8) and the whole IHDR chunk (4 length, 4 type, 13 data, 4 CRC).
  return Buffer.concat([png.subarray(0, 33), Buffer.from('garbage '.repeat(64))]);
}
