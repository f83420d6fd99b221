import zlib from 'node:zlib';

// A kept page is compressed once, when it is kept, though every answer writes its own nonce into
// it: compressing each answer as it went out cost more than everything else a kept page's request
// does (docs/adr/0026-storefront-pages-kept-with-the-catalog.md). DEFLATE (RFC 1951) allows it.
// Each fixed part of the text is compressed on its own and, all but the last, ends with a full
// flush: on a byte boundary, with no final block, and with nothing after it referring back into
// it. An answer's own text goes between the parts as a stored (uncompressed) block. The gzip
// wrapper (RFC 1952) then needs the CRC-32 and length of the whole text, worked out per answer
// from the parts' own, made once.

/** A gzip member's header: deflate, no name or time, "unknown" operating system. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
/** A stored block holds at most this many bytes. */
const MAX_STORED_BYTES = 0xffff;

/** Text compressed around the slots between its parts, each filled per answer. */
export interface SlottedGzip {
  /** Each part's bytes, for the CRC-32 that runs through the fillings. */
  parts: Buffer[];
  /** Each part as DEFLATE blocks: all but the last flushed to a byte boundary, the last final. */
  deflated: Buffer[];
  /** The CRC-32 of the first part, where every answer's CRC starts. */
  firstCrc: number;
}

export function gzipWithSlots(parts: string[]): SlottedGzip {
  const bytes = parts.map((part) => Buffer.from(part));
  return {
    parts: bytes,
    deflated: bytes.map((part, i) =>
      zlib.deflateRawSync(part, {
        // Once per kept page, so as small as zlib makes it.
        level: zlib.constants.Z_BEST_COMPRESSION,
        finishFlush: i === bytes.length - 1 ? zlib.constants.Z_FINISH : zlib.constants.Z_FULL_FLUSH,
      }),
    ),
    firstCrc: continueCrc(bytes[0] ?? Buffer.alloc(0), 0),
  };
}

/** The CRC-32 `crc` continued over `bytes`. Node 20's zlib.crc32 answers 0 for an empty Buffer.from(''), whatever it continues. */
const continueCrc = (bytes: Buffer, crc: number) => (bytes.length > 0 ? zlib.crc32(bytes, crc) : crc);

/** A stored block, not the last, of at most MAX_STORED_BYTES; the stream is on a byte boundary before it. */
function storedBlock(bytes: Buffer): Buffer {
  const header = Buffer.alloc(5);
  // First byte: BFINAL 0, BTYPE 00 (stored), then padding to the byte's end.
  header.writeUInt16LE(bytes.length, 1);
  header.writeUInt16LE(~bytes.length & 0xffff, 3);
  return Buffer.concat([header, bytes]);
}

/** The whole text as one gzip member, with `filling` in every slot. */
export function fillGzip(text: SlottedGzip, filling: string): Buffer {
  const fill = Buffer.from(filling);
  if (fill.length > MAX_STORED_BYTES) throw new RangeError('A slot holds at most 65,535 bytes');
  const block = storedBlock(fill);
  const chunks = [GZIP_HEADER, text.deflated[0] ?? Buffer.alloc(0)];
  let crc = text.firstCrc;
  let length = text.parts[0]?.length ?? 0;
  for (let i = 1; i < text.parts.length; i++) {
    const part = text.parts[i]!;
    chunks.push(block, text.deflated[i]!);
    crc = continueCrc(part, continueCrc(fill, crc));
    length += fill.length + part.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  // ISIZE: the length modulo 2^32.
  trailer.writeUInt32LE(length % 2 ** 32, 4);
  return Buffer.concat([...chunks, trailer]);
}
