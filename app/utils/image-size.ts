/**
 * An uploaded image's pixel size, read from its header (PNG, JPEG, GIF, WebP), and the cap on it.
 * The byte limit alone let a 60,000 x 60,000 PNG in as a login logo (issue 35 finding 10): a few
 * kilobytes that every browser showing the sign-in page would try to decode into gigabytes.
 */

/** The longest side an uploaded image may have, in pixels. */
export const MAX_IMAGE_SIDE = 5000;
export const IMAGE_TOO_MANY_PIXELS = `Images must be at most ${MAX_IMAGE_SIDE} × ${MAX_IMAGE_SIDE} pixels.`;

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + ((b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!);
const ascii = (b: Uint8Array, i: number, text: string) => [...text].every((c, k) => b[i + k] === c.charCodeAt(0));

/** Width and height from the image's header, or null when the bytes name none (not one of the four types, or cut short). */
export function imageDimensions(b: Uint8Array): { width: number; height: number } | null {
  // PNG: the IHDR chunk comes first, width and height big-endian
  if (b.length >= 24 && b[0] === 0x89 && ascii(b, 1, "PNG") && ascii(b, 12, "IHDR")) return { width: u32be(b, 16), height: u32be(b, 20) };
  // GIF: the logical screen, little-endian
  if (b.length >= 10 && ascii(b, 0, "GIF8")) return { width: u16le(b, 6), height: u16le(b, 8) };
  if (b.length >= 30 && ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) {
    if (ascii(b, 12, "VP8X")) return { width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
    if (ascii(b, 12, "VP8L")) {
      const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (ascii(b, 12, "VP8 ")) return { width: u16le(b, 26) & 0x3fff, height: u16le(b, 28) & 0x3fff };
    return null;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return jpegDimensions(b);
  return null;
}

/** A JPEG's size from its first start-of-frame segment, walking the segments before it. */
function jpegDimensions(b: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    // SOF0 to SOF15, but not DHT (C4), JPG (C8) or DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return { height: u16be(b, i + 5), width: u16be(b, i + 7) };
    // markers without a length: RST0-7, SOI, EOI, TEM
    if ((marker >= 0xd0 && marker <= 0xd9) || marker === 0x01) {
      i += 2;
      continue;
    }
    i += 2 + u16be(b, i + 2);
  }
  return null;
}

/** The cap's message when the image is larger than it, else null. */
export function imageSizeProblem(bytes: Uint8Array): string | null {
  const size = imageDimensions(bytes);
  return size && (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE) ? IMAGE_TOO_MANY_PIXELS : null;
}
