// gen_boxes.mjs — detection boxes beside their images, for the boxes drawn
// over pictures, written by npm apache-arrow 21.2.0:
//
//   boxes_hf.arrow  a Hugging Face detection set laid out as cppe-5 is
//     (huggingface/datasets datasets/cppe-5/cppe-5.py @ 4555e041: image_id =
//     Value("int64"), image = Image(), width and height = Value("int32"),
//     objects = Sequence({id: Value("int64"), area: Value("int64"), bbox:
//     Sequence(Value("float32"), length=4), category: ClassLabel(names=
//     ["Coverall", "Face_Shield", "Gloves", "Goggles", "Mask"])}); the bbox
//     is COCO's [x, y, width, height] in pixels and area = width × height).
//     datasets stores the Sequence of a dict as a struct of lists:
//     objects: struct<id: list<int64>, area: list<int64>, bbox:
//     list<fixed_size_list<float32, 4>>, category: list<int64>>; the Image
//     as struct<bytes: binary, path: string> (src/datasets/features/image.py
//     @ b7cb10b0); the features JSON under the schema metadata key
//     "huggingface" (datasets' Features.to_dict, pre-4.0 "Sequence" form).
//     The file does not say the box format: readers guess it (here from the
//     areas). Row 0 holds boxes inside the image, one past its right and
//     bottom edges, one with a NaN, one with a negative height and one
//     wholly to the right of it; row 1 a class id past the names; row 2's
//     objects are null.
//   boxes_hf.parquet  the same table as the Hub serves it, by parquet-wasm
//     0.8.0 (arrow-rs's writer), the features also in the footer's
//     key_value_metadata.
//   boxes_yolo.arrow  a canonical arrow.fixed_shape_tensor uint8 image
//     [16, 32, 3] (dim_names H, W, C) and a plain column "boxes":
//     list<fixed_size_list<float32, 4>> of YOLO's normalised [x_centre,
//     y_centre, width, height] (Ultralytics' label format), no categories,
//     no stated format: one box past the image, one with a NaN; row 1's
//     boxes null.
//   boxes_list.arrow  the same set as datasets 4 writes a List of a dict
//     (src/datasets/features/features.py @ b7cb10b0: Sequence turns a dict
//     into a dict of lists, List keeps it a list of structs; its features
//     JSON {"feature": {...}, "_type": "List"}; docs/source/
//     about_dataset_features.mdx shows List({...}) inferred from a list of
//     dicts, as COCO annotations converted one object a dict become):
//     objects: list<struct<bbox: fixed_size_list<float32, 4>, category:
//     int64>>, the category a ClassLabel; no areas and no stated format (a
//     box whose width is below its x says xywh). Row 0 holds a null object
//     among its boxes; row 1 none (an empty list).
//   boxes_one.arrow  one box a row beside an arrow.fixed_shape_tensor uint8
//     image [24, 32, 3] (H, W, C), as a pyarrow user writes it:
//     "bbox" fixed_size_list<float32, 4> whose field metadata says
//     bbox_format = "pascal_voc" (xyxy pixels; no standard key exists:
//     bbox_format is TFDS BBoxFeature's argument, the values albumentations'
//     names), numbers that would be guessed xywh; "subject" a struct laid
//     out as Visual Genome's relationships' subject (huggingface/datasets
//     datasets/visual_genome/visual_genome.py @ d7dfbc83: {object_id, x, y,
//     w, h, names: [string], synsets: [string]}), whose field names give
//     xywh; "detections" a model's output, list<struct<box:
//     fixed_size_list<float32, 4>, label: dictionary<int32, utf8>, score:
//     float32>>, field metadata bbox_format = "REL_XYXY" (the Keras name
//     Croissant 1.1's cr:format takes for a cr:BoundingBox: normalised
//     corners). Row 1's bbox and row 2's subject are null; row 1's
//     detections empty.
//
// Pictures: pixel (y, x) = (6x + 20, 8y + 30, 100 + x + y). boxes_expected.json
// gives every box's numbers and, computed here from the formats'
// definitions (independently of the Go code), its pixel corners clipped to
// the image, the pixels its edges cover, and the counts of boxes drawn,
// clipped, outside and invalid, for the format a reader should guess and
// for xyxy (the HF row 0, as a user who picks the wrong format sees it).
// boxes_layouts_expected.json does the same for boxes_list and boxes_one.
//
// Regenerate:   cd testdata && npm ci && node gen_boxes.mjs

import {
  Field, Schema, Struct, List, FixedSizeList, RecordBatch, Table,
  Int32, Int64, Uint8, Float32, Utf8, Dictionary, makeData, vectorFromArray, tableToIPC, tableFromIPC,
} from 'apache-arrow';
import * as pw from 'parquet-wasm';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { png } from './png.mjs';
import { pyJSON, validity, imageStruct } from './hf.mjs';

const OUT = dirname(fileURLToPath(import.meta.url));

function assert(cond, msg) { if (!cond) throw new Error('self-check failed: ' + msg); }
const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));
const pixel = (y, x) => [6 * x + 20, 8 * y + 30, 100 + x + y];
const picture = (h, w) => range(h * w * 3, (i) => pixel(Math.floor(i / 3 / w), Math.floor(i / 3) % w)[i % 3]);

// boxList is list<fixed_size_list<float32, 4>>: rows of boxes (arrays of 4
// numbers) or null.
const boxType = new FixedSizeList(4, new Field('item', new Float32(), true));
const boxListType = new List(new Field('item', boxType, true));
function boxList(rows) {
  const flat = rows.flatMap((r) => r ?? []);
  const values = makeData({ type: new Float32(), length: flat.length * 4, nullCount: 0, data: Float32Array.from(flat.flat()) });
  const boxes = makeData({ type: boxType, length: flat.length, nullCount: 0, child: values });
  const offsets = Int32Array.from([0, ...rows.map((r) => r?.length ?? 0)].map((_, i, a) => a.slice(0, i + 1).reduce((s, v) => s + v, 0)));
  return makeData({ type: boxListType, length: rows.length, ...validity(rows), valueOffsets: offsets, child: boxes });
}

// int64List is list<int64>.
function int64List(rows) {
  const listType = new List(new Field('item', new Int64(), true));
  const flat = rows.flatMap((r) => r ?? []);
  const values = makeData({ type: new Int64(), length: flat.length, nullCount: 0, data: BigInt64Array.from(flat.map(BigInt)) });
  const offsets = Int32Array.from([0, ...rows.map((r) => r?.length ?? 0)].map((_, i, a) => a.slice(0, i + 1).reduce((s, v) => s + v, 0)));
  return { type: listType, data: makeData({ type: listType, length: rows.length, ...validity(rows), valueOffsets: offsets, child: values }) };
}

function write(file, fields, datas, metadata) {
  const schema = new Schema(fields, metadata);
  const batch = new RecordBatch(schema, makeData({ type: new Struct(fields), length: datas[0].length, nullCount: 0, children: datas }));
  const table = new Table([batch]);
  const bytes = tableToIPC(table, 'file');
  writeFileSync(join(OUT, file), bytes);
  return tableFromIPC(bytes);
}

// ---------------------------------------------------- the formats, in JS
// Pixel corners of four numbers (a, b, c, d) of a format on a W×H image.
const corners = ([a, b, c, d], fmt, W, H) => ({
  xywh: [a, b, a + c, b + d],
  xyxy: [a, b, c, d],
  cxcywhn: [(a - c / 2) * W, (b - d / 2) * H, (a + c / 2) * W, (b + d / 2) * H],
  xyxyn: [a * W, b * H, c * W, d * H],
}[fmt]);

// place: every box's fate on a W×H image: invalid (a NaN, a negative width
// or height), outside (no overlap), or drawn with its corners clamped to
// the image and the pixels its edges cover (columns floor(x0)..ceil(x1)−1,
// rows likewise, at least one of each).
function place(boxes, fmt, W, H) {
  const out = { boxes: [], drawn: 0, clipped: 0, outside: 0, invalid: 0 };
  boxes.forEach((nums, index) => {
    if (nums.some((v) => !Number.isFinite(v))) {
      out.invalid++;
      out.boxes.push({ index, fate: 'invalid', why: 'not finite' });
      return;
    }
    const [x0, y0, x1, y1] = corners(nums, fmt, W, H);
    if (x1 < x0 || y1 < y0) {
      out.invalid++;
      out.boxes.push({ index, fate: 'invalid', why: x1 < x0 ? 'negative width' : 'negative height' });
      return;
    }
    if (x0 >= W || y0 >= H || x1 < 0 || y1 < 0 || (x1 === 0 && x0 < 0) || (y1 === 0 && y0 < 0)) {
      out.outside++;
      out.boxes.push({ index, fate: 'outside', x0, y0, x1, y1 });
      return;
    }
    const c = [Math.max(0, x0), Math.max(0, y0), Math.min(W, x1), Math.min(H, y1)];
    const clipped = c[0] !== x0 || c[1] !== y0 || c[2] !== x1 || c[3] !== y1;
    if (clipped) out.clipped++;
    out.drawn++;
    const left = Math.floor(c[0]), top = Math.floor(c[1]);
    const right = Math.min(W, Math.max(Math.ceil(c[2]), left + 1)) - 1, bottom = Math.min(H, Math.max(Math.ceil(c[3]), top + 1)) - 1;
    out.boxes.push({ index, fate: clipped ? 'clipped' : 'drawn', x0: c[0], y0: c[1], x1: c[2], y1: c[3], pixels: { left, top, right, bottom } });
  });
  return out;
}

// ------------------------------------------------------------ boxes_hf.arrow
const CATEGORIES = ['Coverall', 'Face_Shield', 'Gloves', 'Goggles', 'Mask'];
const HW = 32, HH = 24;
const HF_ROWS = [
  { // row 0
    bbox: [[4, 3, 10, 8], [18, 10, 9, 6], [26, 18, 10, 10], [NaN, 2, 5, 5], [10, 15, 6, -3], [40, 2, 5, 5]],
    category: [0, 4, 2, 1, 3, 3],
  },
  { bbox: [[2, 2, 6, 6], [20, 4, 8, 12]], category: [1, 7] }, // row 1: 7 is past the names
  null, // row 2
];
const hfTable = (() => {
  const rows = HF_ROWS;
  const pic = png(HW, HH, picture(HH, HW));
  const image = imageStruct(rows.map(() => pic), rows.map((_, i) => `images/${i}.png`));
  const id = int64List(rows.map((r, i) => r && r.bbox.map((_, k) => 100 * i + k)));
  const area = int64List(rows.map((r) => r && r.bbox.map(([, , w, h]) => (Number.isFinite(w * h) ? w * h : 25))));
  const bbox = boxList(rows.map((r) => r && r.bbox));
  const category = int64List(rows.map((r) => r && r.category));
  const objType = new Struct([new Field('id', id.type, true), new Field('area', area.type, true),
    new Field('bbox', boxListType, true), new Field('category', category.type, true)]);
  const objects = makeData({ type: objType, length: rows.length, ...validity(rows), children: [id.data, area.data, bbox, category.data] });
  const imageID = vectorFromArray(rows.map((_, i) => BigInt(1000 + i)), new Int64()).data[0];
  const width = vectorFromArray(rows.map(() => HW), new Int32()).data[0];
  const height = vectorFromArray(rows.map(() => HH), new Int32()).data[0];
  const value = (dtype) => ({ dtype, _type: 'Value' });
  const features = { info: { features: {
    image_id: value('int64'), image: { _type: 'Image' }, width: value('int32'), height: value('int32'),
    objects: { feature: {
      id: value('int64'), area: value('int64'),
      bbox: { feature: value('float32'), length: 4, _type: 'Sequence' },
      category: { names: CATEGORIES, _type: 'ClassLabel' },
    }, _type: 'Sequence' },
  } } };
  const meta = new Map([['huggingface', pyJSON(features)]]);
  const t = write('boxes_hf.arrow',
    [new Field('image_id', new Int64(), true), new Field('image', image.type, true), new Field('width', new Int32(), true),
      new Field('height', new Int32(), true), new Field('objects', objType, true)],
    [imageID, image.data, width, height, objects], meta);
  const o = t.getChild('objects');
  assert(t.numRows === 3 && o.get(2) === null, 'boxes_hf rows');
  assert(Number.isNaN(o.get(0).bbox.get(3).get(0)) && o.get(0).bbox.get(4).get(3) === -3, 'boxes_hf bad boxes');
  assert(Number(o.get(1).category.get(1)) === 7, 'boxes_hf category past the names');
  const parquet = pw.writeParquet(pw.Table.fromIPCStream(tableToIPC(t, 'stream')),
    new pw.WriterPropertiesBuilder().setCreatedBy('parquet-rs version 59.3.0 (parquet-wasm 0.8.0)')
      .setKeyValueMetadata(meta).setCompression(pw.Compression.SNAPPY).build());
  writeFileSync(join(OUT, 'boxes_hf.parquet'), parquet);
  const back = tableFromIPC(pw.readParquet(parquet).intoIPCStream());
  assert(back.numRows === 3 && back.schema.metadata.get('huggingface') === pyJSON(features), 'boxes_hf.parquet read back');
  assert(back.getChild('objects').get(0).bbox.get(2).get(3) === 10, 'boxes_hf.parquet boxes');
  return t;
})();

// ---------------------------------------------------------- boxes_yolo.arrow
const YW = 32, YH = 16;
const YOLO_ROWS = [
  [[0.5, 0.5, 0.25, 0.5], [0.875, 0.875, 0.5, 0.5], [NaN, 0.5, 0.125, 0.125], [0.0625, 0.125, 0.125, 0.25]],
  null,
];
{
  const shape = [YH, YW, 3];
  const type = new FixedSizeList(YH * YW * 3, new Field('item', new Uint8(), true));
  const flat = Uint8Array.from([...picture(YH, YW), ...picture(YH, YW)]);
  const child = makeData({ type: new Uint8(), length: flat.length, nullCount: 0, data: flat });
  const image = makeData({ type, length: 2, nullCount: 0, child });
  const imageField = new Field('image', type, true, new Map([['ARROW:extension:name', 'arrow.fixed_shape_tensor'],
    ['ARROW:extension:metadata', JSON.stringify({ shape, dim_names: ['H', 'W', 'C'] })]]));
  const id = vectorFromArray([0, 1], new Int32()).data[0];
  const t = write('boxes_yolo.arrow', [new Field('id', new Int32(), false), imageField, new Field('boxes', boxListType, true)],
    [id, image, boxList(YOLO_ROWS)]);
  assert(t.numRows === 2 && t.getChild('boxes').get(1) === null && t.getChild('boxes').get(0).get(1).get(0) === 0.875, 'boxes_yolo');
}

// Every number above is exact in float32, so the float32 columns hold them.
const rowJSON = (nums) => nums.map((v) => (Number.isNaN(v) ? 'NaN' : v));
writeFileSync(join(OUT, 'boxes_expected.json'), JSON.stringify({
  about: 'Written by gen_boxes.mjs: the boxes of boxes_hf.arrow (and .parquet) and boxes_yolo.arrow, each row placed on its image by the formats\' definitions: x0, y0, x1, y1 are pixel corners clamped to the image, pixels the columns left..right and rows top..bottom (inclusive) its edges cover. Pictures: pixel (y, x) = (6x + 20, 8y + 30, 100 + x + y).',
  hf: {
    width: HW, height: HH, names: CATEGORIES, guess: 'xywh',
    rows: HF_ROWS.map((r) => r && {
      bbox: r.bbox.map(rowJSON), category: r.category,
      xywh: place(r.bbox, 'xywh', HW, HH), xyxy: place(r.bbox, 'xyxy', HW, HH),
    }),
  },
  yolo: {
    width: YW, height: YH, guess: 'cxcywhn',
    rows: YOLO_ROWS.map((r) => r && { boxes: r.map(rowJSON), cxcywhn: place(r, 'cxcywhn', YW, YH) }),
  },
}) + "\n");
assert(hfTable.numRows === 3, 'done');

// ---------------------------------------------------------- boxes_list.arrow
// structList is list<struct<…>>: rows of arrays of objects (null for a null
// object) or null, the struct's children made by children(objects).
function structList(structType, rows, children) {
  const flat = rows.flatMap((r) => r ?? []);
  const st = makeData({ type: structType, length: flat.length, ...validity(flat), children: children(flat) });
  const listType = new List(new Field('item', structType, true));
  const offsets = Int32Array.from([0, ...rows.map((r) => r?.length ?? 0)].map((_, i, a) => a.slice(0, i + 1).reduce((s, v) => s + v, 0)));
  return { type: listType, data: makeData({ type: listType, length: rows.length, ...validity(rows), valueOffsets: offsets, child: st }) };
}
// boxData is fixed_size_list<float32, 4> of boxes (null: zeros, invalid).
function boxData(boxes) {
  const values = makeData({ type: new Float32(), length: boxes.length * 4, nullCount: 0, data: Float32Array.from(boxes.flatMap((b) => b ?? [0, 0, 0, 0])) });
  return makeData({ type: boxType, length: boxes.length, ...validity(boxes), child: values });
}
const LIST_ROWS = [
  [{ bbox: [4, 3, 10, 8], category: 0 }, { bbox: [20, 4, 8, 12], category: 4 }, null, { bbox: [26, 18, 10, 10], category: 2 }],
  [],
];
{
  const rows = LIST_ROWS;
  const pic = png(HW, HH, picture(HH, HW));
  const image = imageStruct(rows.map(() => pic));
  const objType = new Struct([new Field('bbox', boxType, true), new Field('category', new Int64(), true)]);
  const objects = structList(objType, rows, (flat) => [
    boxData(flat.map((o) => o && o.bbox)),
    makeData({ type: new Int64(), length: flat.length, ...validity(flat), data: BigInt64Array.from(flat.map((o) => BigInt(o ? o.category : 0))) }),
  ]);
  const imageID = vectorFromArray(rows.map((_, i) => BigInt(2000 + i)), new Int64()).data[0];
  const value = (dtype) => ({ dtype, _type: 'Value' });
  const features = { info: { features: {
    image_id: value('int64'), image: { _type: 'Image' },
    objects: { feature: {
      bbox: { feature: value('float32'), length: 4, _type: 'List' },
      category: { names: CATEGORIES, _type: 'ClassLabel' },
    }, _type: 'List' },
  } } };
  const t = write('boxes_list.arrow', [new Field('image_id', new Int64(), true), new Field('image', image.type, true), new Field('objects', objects.type, true)],
    [imageID, image.data, objects.data], new Map([['huggingface', pyJSON(features)]]));
  const o = t.getChild('objects');
  assert(o.get(0).get(1).bbox.get(2) === 8 && o.get(0).get(2) === null && o.get(1).length === 0, 'boxes_list objects');
}

// ----------------------------------------------------------- boxes_one.arrow
const OW = 32, OH = 24;
const LABELS = ['person', 'dog', 'kite'];
const ONE_ROWS = [
  { bbox: [4, 3, 14, 11], subject: { id: 11, x: 16, y: 8, w: 12, h: 10, names: ['man', 'person'] },
    detections: [{ box: [0.5, 0.125, 0.75, 0.5], label: 0, score: 0.9 }, { box: [0.0625, 0.5, 0.375, 1], label: 1, score: 0.75 }] },
  { bbox: null, subject: { id: 12, x: 2, y: 2, w: 6, h: 30, names: ['kite'] }, detections: [] },
  { bbox: [10, 10, 20, 20], subject: null, detections: [{ box: [0.25, 0.25, 0.5, 0.5], label: 2, score: 0.5 }] },
];
{
  const rows = ONE_ROWS;
  const shape = [OH, OW, 3];
  const type = new FixedSizeList(OH * OW * 3, new Field('item', new Uint8(), true));
  const flat = Uint8Array.from(rows.flatMap(() => picture(OH, OW)));
  const image = makeData({ type, length: rows.length, nullCount: 0, child: makeData({ type: new Uint8(), length: flat.length, nullCount: 0, data: flat }) });
  const imageField = new Field('image', type, true, new Map([['ARROW:extension:name', 'arrow.fixed_shape_tensor'],
    ['ARROW:extension:metadata', JSON.stringify({ shape, dim_names: ['H', 'W', 'C'] })]]));
  const bbox = boxData(rows.map((r) => r.bbox));
  const subjects = rows.map((r) => r.subject);
  const int32s = (f) => makeData({ type: new Int32(), length: subjects.length, ...validity(subjects), data: Int32Array.from(subjects.map((s) => (s ? f(s) : 0))) });
  const strList = (lists) => {
    const all = lists.flatMap((l) => l ?? []);
    const t = new List(new Field('item', new Utf8(), true));
    const offsets = Int32Array.from([0, ...lists.map((l) => l?.length ?? 0)].map((_, i, a) => a.slice(0, i + 1).reduce((s, v) => s + v, 0)));
    return { type: t, data: makeData({ type: t, length: lists.length, ...validity(lists), valueOffsets: offsets, child: vectorFromArray(all, new Utf8()).data[0] }) };
  };
  const names = strList(subjects.map((s) => s && s.names));
  const synsets = strList(subjects.map((s) => s && s.names.map((n) => n + '.n.01')));
  const subjType = new Struct([new Field('object_id', new Int32(), true), new Field('x', new Int32(), true), new Field('y', new Int32(), true),
    new Field('w', new Int32(), true), new Field('h', new Int32(), true), new Field('names', names.type, true), new Field('synsets', synsets.type, true)]);
  const subject = makeData({ type: subjType, length: subjects.length, ...validity(subjects),
    children: [int32s((s) => s.id), int32s((s) => s.x), int32s((s) => s.y), int32s((s) => s.w), int32s((s) => s.h), names.data, synsets.data] });
  const dictType = new Dictionary(new Utf8(), new Int32(), 0);
  const dictionary = vectorFromArray(LABELS, new Utf8());
  const detType = new Struct([new Field('box', boxType, true), new Field('label', dictType, true), new Field('score', new Float32(), true)]);
  const detections = structList(detType, rows.map((r) => r.detections), (objs) => [
    boxData(objs.map((d) => d.box)),
    makeData({ type: dictType, length: objs.length, nullCount: 0, data: Int32Array.from(objs.map((d) => d.label)), dictionary }),
    makeData({ type: new Float32(), length: objs.length, nullCount: 0, data: Float32Array.from(objs.map((d) => d.score)) }),
  ]);
  const id = vectorFromArray(rows.map((_, i) => i), new Int32()).data[0];
  const t = write('boxes_one.arrow', [new Field('id', new Int32(), false), imageField,
    new Field('bbox', boxType, true, new Map([['bbox_format', 'pascal_voc']])),
    new Field('subject', subjType, true),
    new Field('detections', detections.type, true, new Map([['bbox_format', 'REL_XYXY']]))],
  [id, image, bbox, subject, detections.data]);
  assert(t.getChild('bbox').get(1) === null && t.getChild('subject').get(2) === null && t.getChild('subject').get(0).names.get(1) === 'person', 'boxes_one rows');
  assert(t.getChild('detections').get(0).get(1).label === 'dog' && t.getChild('detections').get(1).length === 0, 'boxes_one detections');
  assert(t.schema.fields[2].metadata.get('bbox_format') === 'pascal_voc', 'boxes_one metadata');
}

const catOf = (objs, f) => objs.map((o) => (o ? f(o) : null));
writeFileSync(join(OUT, 'boxes_layouts_expected.json'), JSON.stringify({
  about: 'Written by gen_boxes.mjs: the boxes of boxes_list.arrow and boxes_one.arrow placed on their images by the formats\' definitions (as boxes_expected.json): x0, y0, x1, y1 pixel corners clamped to the image, pixels the columns left..right and rows top..bottom (inclusive) its edges cover; category the ClassLabel id or dictionary index (null: none), text a box\'s class as text. Pictures: pixel (y, x) = (6x + 20, 8y + 30, 100 + x + y).',
  list: {
    width: HW, height: HH, names: CATEGORIES, guess: 'xywh',
    rows: LIST_ROWS.map((r) => {
      const p = place(r.map((o) => (o ? o.bbox : [NaN, NaN, NaN, NaN])), 'xywh', HW, HH);
      r.forEach((o, i) => { if (o === null) p.boxes[i].why = 'null'; });
      return { category: catOf(r, (o) => o.category), xywh: p };
    }),
  },
  one: {
    width: OW, height: OH, labels: LABELS,
    bbox: ONE_ROWS.map((r) => r.bbox && { xyxy: place([r.bbox], 'xyxy', OW, OH), xywh: place([r.bbox], 'xywh', OW, OH) }),
    subject: ONE_ROWS.map((r) => r.subject && { text: r.subject.names.join(', '), xywh: place([[r.subject.x, r.subject.y, r.subject.w, r.subject.h]], 'xywh', OW, OH) }),
    detections: ONE_ROWS.map((r) => ({ category: r.detections.map((d) => d.label), text: r.detections.map((d) => LABELS[d.label]),
      xyxyn: place(r.detections.map((d) => d.box), 'xyxyn', OW, OH) })),
  },
}) + '\n');

