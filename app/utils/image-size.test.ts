import { describe, expect, it } from "vitest";
import { imageDimensions, imageSizeProblem, IMAGE_TOO_MANY_PIXELS, MAX_IMAGE_SIDE } from "./image-size";

const bytes = (...parts: Array<string | number[]>) => Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
const le16 = (n: number) => [n & 255, n >> 8];
const le24 = (n: number) => [n & 255, (n >> 8) & 255, n >> 16];

describe("imageDimensions", () => {
  it("reads PNG, GIF, JPEG (after other segments) and the three WebP kinds", () => {
    expect(imageDimensions(bytes([0x89], "PNG\r\n\x1a\n", [0, 0, 0, 13], "IHDR", [0, 0, 0xea, 0x60, 0, 0, 0, 7]))).toEqual({ width: 60_000, height: 7 });
    expect(imageDimensions(bytes("GIF89a", le16(640), le16(480)))).toEqual({ width: 640, height: 480 });
    expect(imageDimensions(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 4, 1, 1, 0xff, 0xff, 0xc2, 0, 17, 8, 0x03, 0x20, 0x04, 0x00, 3], Array(20).fill(0)))).toEqual({ width: 1024, height: 800 });
    const webp = (kind: string, body: number[]) => bytes("RIFF", [0, 0, 0, 0], "WEBP", kind, [0, 0, 0, 0], body, Array(16).fill(0));
    expect(imageDimensions(webp("VP8X", [0, 0, 0, 0, ...le24(59_999), ...le24(9)]))).toEqual({ width: 60_000, height: 10 });
    const bits = (100 - 1) | ((50 - 1) << 14);
    expect(imageDimensions(webp("VP8L", [0x2f, bits & 255, (bits >> 8) & 255, (bits >> 16) & 255, bits >>> 24]))).toEqual({ width: 100, height: 50 });
    expect(imageDimensions(webp("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(300), ...le16(200)]))).toEqual({ width: 300, height: 200 });
  });

  it("names no size for other bytes or a header cut short", () => {
    expect(imageDimensions(bytes("<svg/>"))).toBeNull();
    expect(imageDimensions(bytes([0x89], "PNG"))).toBeNull();
    expect(imageDimensions(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 200]))).toBeNull();
  });

  it("refuses past the cap on either side, and takes the cap itself", () => {
    const gif = (w: number, h: number) => bytes("GIF89a", le16(w), le16(h));
    expect(imageSizeProblem(gif(MAX_IMAGE_SIDE + 1, 1))).toBe(IMAGE_TOO_MANY_PIXELS);
    expect(imageSizeProblem(gif(1, MAX_IMAGE_SIDE + 1))).toBe(IMAGE_TOO_MANY_PIXELS);
    expect(imageSizeProblem(gif(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE))).toBeNull();
  });
});
