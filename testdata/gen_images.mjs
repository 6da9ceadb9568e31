// Writes Arrow files whose cells hold encoded images, with apache-arrow
// 21.2.0 (the pinned npm package):
//
//   images_bytes.arrow: id (int32) and image (binary): a PNG this script
//     encodes itself from a formula (so every pixel is known), a lossless
//     WebP, a grey JPEG, a GIF, a PNG with alpha, bytes that are no image,
//     a null, and a PNG whose header declares 100000×100000 pixels (an
//     image bomb: the viewer must refuse it before decoding).
//   images_hf.arrow: a Hugging Face datasets Image feature column, as
//     datasets writes it (src/datasets/features/image.py @ b7cb10b0:
//     storage struct<bytes: binary, path: string>, the features in the
//     schema metadata key "huggingface"): the formula PNG, a row with only
//     a path, a null row; and a label column.
//
// images_expected.json gives the formula PNG's size and pixels.
import * as arrow from 'apache-arrow';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { png, pngHeaderOnly } from './png.mjs';
import { fileURLToPath } from 'node:url';

const OUT = dirname(fileURLToPath(import.meta.url));
const IMG = join(OUT, '..', 'app', 'imagebytes', 'testdata');

// The formula image: 24×16, pixel (y, x) = (10x, 15y, (x·y) mod 256).
const W = 24, H = 16;
const pixels = [];
for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) pixels.push((10 * x) % 256, (15 * y) % 256, (x * y) % 256);
const formula = png(W, H, pixels);
// A bomb: a valid PNG header declaring 100000×100000 RGB, one empty IDAT.
const bomb = pngHeaderOnly(100000, 100000);

const read = (dir, name) => new Uint8Array(readFileSync(join(dir, name)));
const cells = [
  formula,
  read(IMG, 'gopher-doc.8bpp.lossless.webp'),
  read(join(OUT, 'images'), 'video-005.gray.q50.jpeg'),
  read(join(OUT, 'images'), 'triangle-001.gif'),
  read(IMG, 'gopher-doc.with-alpha.png'),
  new TextEncoder().encode('not an image, just bytes'),
  null,
  bomb,
];

const binaryVector = (values) => {
  const b = arrow.makeBuilder({ type: new arrow.Binary(), nullValues: [null] });
  for (const v of values) b.append(v);
  return b.finish().toVector();
};

{
  const ids = arrow.vectorFromArray(cells.map((_, i) => i), new arrow.Int32());
  const table = new arrow.Table({ id: ids, image: binaryVector(cells) });
  writeFileSync(join(OUT, 'images_bytes.arrow'), arrow.tableToIPC(table, 'file'));
}

{
  const bytesField = new arrow.Field('bytes', new arrow.Binary(), true);
  const pathField = new arrow.Field('path', new arrow.Utf8(), true);
  const type = new arrow.Struct([bytesField, pathField]);
  const rows = [{ bytes: formula, path: null }, { bytes: null, path: 'images/cat.png' }, null];
  const b = arrow.makeBuilder({ type, nullValues: [null] });
  for (const r of rows) b.append(r);
  const image = b.finish().toVector();
  const label = arrow.vectorFromArray(['formula', 'path only', null], new arrow.Utf8());
  const features = { info: { features: { image: { _type: 'Image' }, label: { dtype: 'string', _type: 'Value' } } } };
  const schema = new arrow.Schema(
    [new arrow.Field('image', type, true), new arrow.Field('label', new arrow.Utf8(), true)],
    new Map([['huggingface', JSON.stringify(features)]]));
  const table = new arrow.Table(schema, { image, label });
  writeFileSync(join(OUT, 'images_hf.arrow'), arrow.tableToIPC(table, 'file'));
}

writeFileSync(join(OUT, 'images_expected.json'), JSON.stringify({
  about: 'Written by gen_images.mjs: the formula PNG (row 0 of both files), pixel (y, x) = (10x, 15y, x*y mod 256)',
  formula: { width: W, height: H, channels: 3, pixels },
}) + '\n');
