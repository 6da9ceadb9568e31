// A minimal PNG encoder for the generators (PNG specification: 8-bit RGB,
// colour type 2, or 8-bit greyscale, colour type 0; filter 0, one IDAT
// chunk), so that every pixel of a test image is known.
import { deflateSync } from 'node:zlib';

// CRC-32 (ISO 3309, as PNG chunks use it).
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const be32 = (v) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
const chunk = (type, data) => {
  const td = [...Buffer.from(type, 'latin1'), ...data];
  return [...be32(data.length), ...td, ...be32(crc32(td))];
};
const file = (w, h, idat, colourType = 2) => Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10,
  ...chunk('IHDR', [...be32(w), ...be32(h), 8, colourType, 0, 0, 0]),
  ...chunk('IDAT', [...idat]), ...chunk('IEND', [])]);

// scanlines deflates h rows of n samples each (filter type 0, none).
const scanlines = (h, n, samples) => {
  const raw = [];
  for (let y = 0; y < h; y++) {
    raw.push(0);
    for (let x = 0; x < n; x++) raw.push(samples[y * n + x]);
  }
  return deflateSync(Uint8Array.from(raw), { level: 9 });
};

// png encodes a w×h RGB image whose pixel (y, x) is rgb[3(yw+x)…+2].
export const png = (w, h, rgb) => file(w, h, scanlines(h, w * 3, rgb));

// pngGray encodes a w×h 8-bit greyscale image whose pixel (y, x) is
// grey[yw+x]: how segmentation datasets store a mask of class ids.
export const pngGray = (w, h, grey) => file(w, h, scanlines(h, w, grey), 0);

// pngHeaderOnly is a valid PNG header declaring w×h RGB pixels with one
// empty IDAT: an image bomb a reader must refuse before decoding.
export const pngHeaderOnly = (w, h) => file(w, h, deflateSync(Uint8Array.from([0])));

// pngPalette encodes a w×h 8-bit indexed-colour PNG (colour type 3, PIL's
// "P" mode, PASCAL VOC's SegmentationClass masks): pixel (y, x) is the
// palette index idx[yw+x], and palette the [r, g, b] entries of PLTE.
export const pngPalette = (w, h, idx, palette) => Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10,
  ...chunk('IHDR', [...be32(w), ...be32(h), 8, 3, 0, 0, 0]),
  ...chunk('PLTE', palette.flat()),
  ...chunk('IDAT', [...scanlines(h, w, idx)]), ...chunk('IEND', [])]);

// pngGray16 encodes a w×h 16-bit greyscale PNG (most significant byte
// first, PNG §7.1), as Cityscapes stores its instance ids: pixel (y, x) is
// grey[yw+x], 0..65535.
export const pngGray16 = (w, h, grey) => file16(w, h, scanlines(h, w * 2, grey.flatMap((v) => [v >> 8, v & 255])));
const file16 = (w, h, idat) => Uint8Array.from([137, 80, 78, 71, 13, 10, 26, 10,
  ...chunk('IHDR', [...be32(w), ...be32(h), 16, 0, 0, 0, 0]),
  ...chunk('IDAT', [...idat]), ...chunk('IEND', [])]);
