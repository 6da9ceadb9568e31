// gen_masks.mjs — segmentation masks beside their images, for the
// inspector's overlays, written by npm apache-arrow 21.2.0:
//
//   masks_tensor.arrow  canonical tensors, as a pyarrow user writes them:
//     image  arrow.fixed_shape_tensor uint8 [12, 16, 3], dim_names H, W, C
//     mask   arrow.fixed_shape_tensor uint8 [12, 16], dim_names H, W: class ids
//     pred   arrow.fixed_shape_tensor float32 [12, 16]: probabilities x/15
//     row 1's mask is null.
//   masks_hf.arrow  a Hugging Face scene parsing set, laid out as
//     scene_parse_150 (ADE20K) is on the Hub (its loading script,
//     huggingface/datasets datasets/scene_parse_150/scene_parse_150.py @
//     13108a5b, config scene_parsing: image = Image(), annotation = Image(),
//     scene_category = ClassLabel(names=…); its test split's annotation is
//     None): image and annotation are datasets' Image feature,
//     struct<bytes: binary, path: string> (src/datasets/features/image.py @
//     b7cb10b0), the annotation a greyscale PNG whose grey levels are the class
//     ids; the features JSON under the schema metadata key "huggingface". The
//     pixel classes have no names in such a file (ADE20K lists them in its
//     card only); scene_category's names name scenes, not pixels. Row 1's
//     annotation is 8×6, not the image's 16×12; row 2's is null.
//   masks_hf.parquet  the same table as the Hub serves it, in Parquet:
//     written by parquet-wasm 0.8.0 (arrow-rs's writer), 2-row row groups,
//     the features also in the footer's key_value_metadata as pyarrow
//     writes them for datasets.
//   masks_named.arrow  the Hugging Face layout that does name pixel classes:
//     a 2-D Sequence of ClassLabel (datasets 4 writes List(List(ClassLabel)),
//     storage list<list<int64>>, as token classification sets store
//     Sequence(ClassLabel) tags), beside an Image feature.
//   masks_voc.arrow  PASCAL VOC's segmentation masks as Image features
//     (struct<bytes, path>, as above): "mask" is a paletted PNG (colour type
//     3) with the devkit's 256-colour label map (VOCdevkit
//     VOCcode/VOClabelcolormap.m), like VOC2012's SegmentationClass PNGs:
//     class 1 (aeroplane) and 15 (person) with a one-pixel "void" (255)
//     ring around each, background 0; "foreground" an 8-bit grey PNG of 0
//     and 255 only (a binary mask, whose 255 is its class, not void).
//   masks_wide.arrow  class ids past 255 and past the names: "label" a
//     List(List(ClassLabel(names=[background, road, car, person]))) (as
//     masks_named) holding 0, 1, 2, 300 and 70000; "instances" a 16-bit grey
//     PNG of instance ids as Cityscapes' gtFine *_instanceIds.png store them
//     (cityscapesScripts: id = class id, or class id × 1000 + instance for
//     countable classes): 0, 7 (road), 255, 26000 and 26001 (two cars).
//
// Every mask holds the same classes (MASK below): 0 background, 1, 2, 3 and
// 7 (past masks_named's four names). The images' pixel (y, x) is
// (12x + 20, 16y + 30, 100 + x + y). masks_expected.json gives sizes,
// pixels, class ids and names.
//
// masks_more_expected.json gives masks_voc's and masks_wide's class ids.
//
// Regenerate:   cd testdata && npm ci && node gen_masks.mjs

import {
  Field, Schema, Struct, List, FixedSizeList, RecordBatch, Table,
  Int32, Int64, Uint8, Float32, makeData, vectorFromArray, tableToIPC, tableFromIPC,
} from 'apache-arrow';
import * as pw from 'parquet-wasm';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { png, pngGray, pngPalette, pngGray16 } from './png.mjs';
import { pyJSON, imageStruct } from './hf.mjs';

const OUT = dirname(fileURLToPath(import.meta.url));
const FST = 'arrow.fixed_shape_tensor';
const H = 12, W = 16;

function assert(cond, msg) { if (!cond) throw new Error('self-check failed: ' + msg); }
const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));

// The picture: pixel (y, x) = (12x + 20, 16y + 30, 100 + x + y).
const pixel = (y, x) => [12 * x + 20, 16 * y + 30, 100 + x + y];
const IMAGE = range(H * W * 3, (i) => pixel(Math.floor(i / 3 / W), Math.floor(i / 3) % W)[i % 3]);

// The classes, as rectangles [class, rows lo..hi, columns lo..hi] (last wins).
const RECTS = [
  [1, 2, 6, 1, 6], //   5×6 block: interior rows 3..5, columns 2..5
  [2, 5, 10, 9, 14], // 6×6 block
  [3, 0, 1, 12, 15], // along the top and right borders
  [7, 10, 11, 0, 3], // an id past the names
];
const MASK = range(H * W, (i) => {
  const y = Math.floor(i / W), x = i % W;
  let c = 0;
  for (const [id, y0, y1, x0, x1] of RECTS) if (y >= y0 && y <= y1 && x >= x0 && x <= x1) c = id;
  return c;
});
// The small annotation of masks_hf.arrow's row 1: 8×6, class 2 in its left half.
const SW = 8, SH = 6;
const SMALL = range(SW * SH, (i) => (i % SW < 4 ? 2 : 0));

const fstType = (vt, shape) => new FixedSizeList(shape.reduce((a, b) => a * b, 1), new Field('item', vt, true));
function fst(name, vt, Arr, shape, dimNames, rows) {
  const type = fstType(vt, shape);
  const meta = JSON.stringify(dimNames ? { shape, dim_names: dimNames } : { shape });
  const size = type.listSize;
  const flat = new Arr(rows.length * size);
  rows.forEach((r, i) => { if (r !== null) flat.set(r, i * size); });
  const bm = new Uint8Array(Math.ceil(rows.length / 8));
  let nulls = 0;
  rows.forEach((r, i) => { if (r === null) nulls++; else bm[i >> 3] |= 1 << (i & 7); });
  const child = makeData({ type: vt, length: flat.length, nullCount: 0, data: flat });
  return {
    field: new Field(name, type, true, new Map([['ARROW:extension:name', FST], ['ARROW:extension:metadata', meta]])),
    data: makeData({ type, length: rows.length, nullCount: nulls, nullBitmap: nulls ? bm : undefined, child }),
  };
}

function write(file, fields, datas, metadata) {
  const schema = new Schema(fields, metadata);
  const n = datas[0].length;
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: n, nullCount: 0, children: datas }));
  const bytes = tableToIPC(new Table([batch]), 'file');
  writeFileSync(join(OUT, file), bytes);
  return tableFromIPC(bytes);
}

// ------------------------------------------------------ masks_tensor.arrow
{
  const id = vectorFromArray([0, 1], new Int32()).data[0];
  const image = fst('image', new Uint8(), Uint8Array, [H, W, 3], ['H', 'W', 'C'], [IMAGE, IMAGE]);
  const mask = fst('mask', new Uint8(), Uint8Array, [H, W], ['H', 'W'], [MASK, null]);
  const PRED = range(H * W, (i) => (i % W) / 15);
  const pred = fst('pred', new Float32(), Float32Array, [H, W], null, [PRED, PRED]);
  const t = write('masks_tensor.arrow', [new Field('id', new Int32(), false), image.field, mask.field, pred.field],
    [id, image.data, mask.data, pred.data]);
  assert(t.numRows === 2 && t.getChild('mask').get(1) === null, 'masks_tensor rows');
  assert([...t.getChild('mask').get(0)].join() === MASK.join(), 'masks_tensor mask');
}

// ---------------------------------------------------------- masks_hf.arrow
const HF_SCENES = ['bathroom', 'bedroom', 'street'];
{
  const picture = png(W, H, IMAGE);
  const image = imageStruct([picture, picture, picture]);
  const annotation = imageStruct([pngGray(W, H, MASK), pngGray(SW, SH, SMALL), null]);
  const scene = vectorFromArray([2n, 0n, 1n], new Int64()).data[0];
  const features = { info: { features: {
    image: { _type: 'Image' }, annotation: { _type: 'Image' },
    scene_category: { names: HF_SCENES, _type: 'ClassLabel' },
  } } };
  const meta = new Map([['huggingface', pyJSON(features)]]);
  const t = write('masks_hf.arrow',
    [new Field('image', image.type, true), new Field('annotation', annotation.type, true), new Field('scene_category', new Int64(), true)],
    [image.data, annotation.data, scene], meta);
  assert(t.numRows === 3 && t.getChild('annotation').get(2) === null, 'masks_hf rows');
  const parquet = pw.writeParquet(pw.Table.fromIPCStream(tableToIPC(t, 'stream')),
    new pw.WriterPropertiesBuilder().setCreatedBy('parquet-rs version 59.3.0 (parquet-wasm 0.8.0)')
      .setKeyValueMetadata(meta).setMaxRowGroupSize(2).setCompression(pw.Compression.SNAPPY).build());
  writeFileSync(join(OUT, 'masks_hf.parquet'), parquet);
  const back = tableFromIPC(pw.readParquet(parquet).intoIPCStream());
  assert(back.numRows === 3 && back.schema.metadata.get('huggingface') === pyJSON(features), 'masks_hf.parquet read back');
  assert([...back.getChild('annotation').get(0).bytes].join() === [...pngGray(W, H, MASK)].join(), 'masks_hf.parquet annotation');
}

// ------------------------------------------------------- masks_named.arrow
const NAMES = ['background', 'road', 'car', 'person'];
{
  const image = imageStruct([png(W, H, IMAGE)]);
  const inner = new List(new Field('item', new Int64(), true));
  const outer = new List(new Field('item', inner, true));
  const values = makeData({ type: new Int64(), length: H * W, nullCount: 0, data: BigInt64Array.from(MASK.map(BigInt)) });
  const rowsD = makeData({ type: inner, length: H, nullCount: 0, valueOffsets: Int32Array.from(range(H + 1, (y) => y * W)), child: values });
  const label = makeData({ type: outer, length: 1, nullCount: 0, valueOffsets: Int32Array.from([0, H]), child: rowsD });
  const features = { info: { features: {
    image: { _type: 'Image' },
    label: { feature: { feature: { names: NAMES, _type: 'ClassLabel' }, _type: 'List' }, _type: 'List' },
  } } };
  const t = write('masks_named.arrow', [new Field('image', image.type, true), new Field('label', outer, true)],
    [image.data, label], new Map([['huggingface', pyJSON(features)]]));
  assert(t.numRows === 1 && Number(t.getChild('label').get(0).get(3).get(2)) === 1, 'masks_named label');
}

writeFileSync(join(OUT, 'masks_expected.json'), JSON.stringify({
  about: 'Written by gen_masks.mjs: the masks of masks_tensor.arrow (row 0), masks_hf.arrow (row 0) and masks_named.arrow (row 0), over pictures whose pixel (y, x) is (12x + 20, 16y + 30, 100 + x + y)',
  height: H, width: W,
  image: IMAGE,
  mask: MASK,
  names: NAMES,
  scenes: HF_SCENES,
  small: { height: SH, width: SW, mask: SMALL },
}) + '\n');

// --------------------------------------------------------- masks_voc.arrow
// The PASCAL VOC label colour map (VOClabelcolormap.m): the bits of index i
// dealt to red, green and blue three at a time, from bit 7 down.
const vocColour = (i) => {
  const c = [0, 0, 0];
  for (let k = 7, v = i; k >= 0; k--, v >>= 3) {
    c[0] |= (v & 1) << k; c[1] |= ((v >> 1) & 1) << k; c[2] |= ((v >> 2) & 1) << k;
  }
  return c;
};
const VOC_PALETTE = range(256, vocColour);
// Objects [class, rows lo..hi, columns lo..hi]; a void ring one pixel wide
// around each (rows lo−1..hi+1, columns lo−1..hi+1, clipped), objects last.
const VOC_OBJECTS = [[1, 2, 5, 2, 6], [15, 6, 9, 9, 13]];
const VOC_MASK = range(H * W, (i) => {
  const y = Math.floor(i / W), x = i % W;
  let c = 0;
  for (const [, y0, y1, x0, x1] of VOC_OBJECTS) if (y >= y0 - 1 && y <= y1 + 1 && x >= x0 - 1 && x <= x1 + 1) c = 255;
  for (const [id, y0, y1, x0, x1] of VOC_OBJECTS) if (y >= y0 && y <= y1 && x >= x0 && x <= x1) c = id;
  return c;
});
const FOREGROUND = VOC_MASK.map((c) => (c === 15 ? 255 : 0));
{
  const image = imageStruct([png(W, H, IMAGE)], ['JPEGImages/2007_000032.jpg']);
  const mask = imageStruct([pngPalette(W, H, VOC_MASK, VOC_PALETTE)], ['SegmentationClass/2007_000032.png']);
  const fg = imageStruct([pngGray(W, H, FOREGROUND)]);
  const t = write('masks_voc.arrow', [new Field('image', image.type, true), new Field('mask', mask.type, true), new Field('foreground', fg.type, true)],
    [image.data, mask.data, fg.data]);
  assert(t.numRows === 1 && t.getChild('mask').get(0).bytes[25] === 3, 'masks_voc: a paletted PNG');
  assert(VOC_MASK.filter((c) => c === 255).length > 0 && VOC_PALETTE[255].join() === '224,224,192', 'masks_voc void');
}

// -------------------------------------------------------- masks_wide.arrow
// label: class ids in rectangles [class, rows, columns] (last wins).
const WIDE_RECTS = [[1, 0, 3, 0, 15], [2, 5, 8, 2, 6], [300, 5, 8, 9, 13], [70000, 10, 11, 0, 15]];
const WIDE_LABEL = range(H * W, (i) => {
  const y = Math.floor(i / W), x = i % W;
  let c = 0;
  for (const [id, y0, y1, x0, x1] of WIDE_RECTS) if (y >= y0 && y <= y1 && x >= x0 && x <= x1) c = id;
  return c;
});
// instances: road 7 below row 6, two cars 26000 and 26001, a patch of 255.
const INSTANCE_RECTS = [[7, 7, 11, 0, 15], [26000, 2, 5, 1, 5], [26001, 3, 8, 8, 12], [255, 0, 1, 13, 15]];
const INSTANCES = range(H * W, (i) => {
  const y = Math.floor(i / W), x = i % W;
  let c = 0;
  for (const [id, y0, y1, x0, x1] of INSTANCE_RECTS) if (y >= y0 && y <= y1 && x >= x0 && x <= x1) c = id;
  return c;
});
{
  const image = imageStruct([png(W, H, IMAGE)]);
  const inner = new List(new Field('item', new Int64(), true));
  const outer = new List(new Field('item', inner, true));
  const values = makeData({ type: new Int64(), length: H * W, nullCount: 0, data: BigInt64Array.from(WIDE_LABEL.map(BigInt)) });
  const rowsD = makeData({ type: inner, length: H, nullCount: 0, valueOffsets: Int32Array.from(range(H + 1, (y) => y * W)), child: values });
  const label = makeData({ type: outer, length: 1, nullCount: 0, valueOffsets: Int32Array.from([0, H]), child: rowsD });
  const instances = imageStruct([pngGray16(W, H, INSTANCES)]);
  const features = { info: { features: {
    image: { _type: 'Image' },
    label: { feature: { feature: { names: NAMES, _type: 'ClassLabel' }, _type: 'List' }, _type: 'List' },
    instances: { _type: 'Image' },
  } } };
  const t = write('masks_wide.arrow', [new Field('image', image.type, true), new Field('label', outer, true), new Field('instances', instances.type, true)],
    [image.data, label, instances.data], new Map([['huggingface', pyJSON(features)]]));
  assert(t.numRows === 1 && Number(t.getChild('label').get(0).get(11).get(0)) === 70000, 'masks_wide label');
  const b = t.getChild('instances').get(0).bytes;
  assert(b[24] === 16 && b[25] === 0, 'masks_wide: a 16-bit grey PNG');
}

writeFileSync(join(OUT, 'masks_more_expected.json'), JSON.stringify({
  about: 'Written by gen_masks.mjs: the class ids of masks_voc.arrow (mask: palette indices, foreground: grey levels) and masks_wide.arrow (label, instances), row 0, row-major, over the pictures of masks_expected.json (pixel (y, x) = (12x + 20, 16y + 30, 100 + x + y)); names are masks_wide label\'s ClassLabel names',
  height: H, width: W,
  voc: { mask: VOC_MASK, foreground: FOREGROUND },
  wide: { label: WIDE_LABEL, instances: INSTANCES, names: NAMES },
}) + '\n');
