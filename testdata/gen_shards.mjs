// gen_shards.mjs — a small Hugging Face-like dataset in 3 shards, for
// tensorview's datasets of many files, written by npm
// apache-arrow 21.2.0 and parquet-wasm 0.8.0 (arrow-rs's Parquet writer).
//
// The shards are named as huggingface/datasets names the Parquet shards it
// pushes (src/datasets/arrow_dataset.py @ b7cb10b0, _push_parquet_shards_to_hub:
// f"{data_dir}/{split}-{index:05d}-of-{num_shards:05d}.parquet"), so plain
// and natural order agree: train-00000-of-00003.parquet, …-00001-…, …-00002-….
//
//   shards/parquet/   the 3 Parquet shards (5, 7 and 3 rows, 2 row groups
//                     each: 3+2, 4+3, 2+1), and notes.txt, a text file a
//                     dropped folder holds that is no shard (skipped).
//   shards/mixed/     the same rows, shard 1 an Arrow IPC file and shard 2
//                     an Arrow IPC stream named .arrow, as datasets'
//                     ArrowWriter writes its .arrow files
//                     (src/datasets/arrow_writer.py: pa.RecordBatchStreamWriter);
//                     2 record batches each.
//   shards/mismatch/  the same rows, shard 1's label a string (its ClassLabel
//                     name) instead of int64 (another type: an error in its
//                     cells), shard 2 without caption (null there).
//
// Columns, row g of 15 (global row numbers):
//   id       int64 100 + g
//   image    datasets' Image feature, struct<bytes: binary, path: string>:
//            a 6×4 PNG whose pixel (y, x) is
//            ((40x + 13g) mod 256, (60y + 29g) mod 256, (17g + 5x + 3y) mod 256),
//            path "{g:05d}.png"
//   label    int64, ClassLabel(names=[cat, dog, bird]) in the features
//   heatmap  arrow.fixed_shape_tensor float32 [4, 4] (dim names H, W),
//            element i = g + i/16 (exact in float32)
//   caption  utf8
// The features JSON is under the schema metadata key "huggingface" (and
// the Parquet footer's key_value_metadata) as datasets writes it.
//
// shards_expected.json gives every row's values and each set's files.
//
// Regenerate:   cd testdata && npm ci && node gen_shards.mjs

import {
  Field, Schema, Struct, FixedSizeList, RecordBatch, Table,
  Int64, Float32, Utf8, makeData, vectorFromArray, tableToIPC, tableFromIPC,
} from 'apache-arrow';
import * as pw from 'parquet-wasm';
import { parquetMetadata } from 'hyparquet';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { png } from './png.mjs';
import { pyJSON, imageStruct } from './hf.mjs';

const OUT = join(dirname(fileURLToPath(import.meta.url)), 'shards');
const FST = 'arrow.fixed_shape_tensor';
const NAMES = ['cat', 'dog', 'bird'];
const SHARD_ROWS = [5, 7, 3];
const N = SHARD_ROWS.reduce((a, b) => a + b, 0);
const IW = 6, IH = 4;

function assert(cond, msg) { if (!cond) throw new Error('self-check failed: ' + msg); }
const range = (n, f = (i) => i) => Array.from({ length: n }, (_, i) => f(i));
const shardName = (k, ext) => `train-${String(k).padStart(5, '0')}-of-${String(SHARD_ROWS.length).padStart(5, '0')}.${ext}`;

// The rows.
const CAPTIONS = ['a red cat on a mat', 'two dogs', 'a bird in a tree', 'a <b>bold</b> & odd caption', 'sunset over the sea'];
const ROWS = range(N, (g) => ({
  id: 100 + g,
  label: (g * 7 + 2) % 3,
  caption: `${CAPTIONS[g % CAPTIONS.length]} #${g}`,
  heatmap: range(16, (i) => g + i / 16),
  pixels: range(IW * IH * 3, (p) => {
    const c = p % 3, x = Math.floor(p / 3) % IW, y = Math.floor(p / 3 / IW);
    return [(40 * x + 13 * g) % 256, (60 * y + 29 * g) % 256, (17 * g + 5 * x + 3 * y) % 256][c];
  }),
  path: `${String(g).padStart(5, '0')}.png`,
}));
const START = SHARD_ROWS.map((_, k) => SHARD_ROWS.slice(0, k).reduce((a, b) => a + b, 0));

const FEATURES = {
  info: {
    features: {
      id: { dtype: 'int64', _type: 'Value' },
      image: { _type: 'Image' },
      label: { names: NAMES, _type: 'ClassLabel' },
      caption: { dtype: 'string', _type: 'Value' },
    },
  },
};
const META = new Map([['huggingface', pyJSON(FEATURES)]]);

const heatmapType = new FixedSizeList(16, new Field('item', new Float32(), true));
const heatmapField = new Field('heatmap', heatmapType, true, new Map([
  ['ARROW:extension:name', FST], ['ARROW:extension:metadata', JSON.stringify({ shape: [4, 4], dim_names: ['H', 'W'] })]]));

// batch is the record batch of rows, its columns as in variant: 'base',
// 'labelText' (label as its name, utf8) or 'noCaption'.
function batch(rows, variant) {
  const image = imageStruct(rows.map((r) => png(IW, IH, r.pixels)), rows.map((r) => r.path));
  const flat = Float32Array.from(rows.flatMap((r) => r.heatmap));
  const heat = makeData({ type: heatmapType, length: rows.length, nullCount: 0,
    child: makeData({ type: new Float32(), length: flat.length, nullCount: 0, data: flat }) });
  const fields = [new Field('id', new Int64(), true), new Field('image', image.type, true)];
  const cols = [vectorFromArray(rows.map((r) => BigInt(r.id)), new Int64()).data[0], image.data];
  if (variant === 'labelText') {
    fields.push(new Field('label', new Utf8(), true));
    cols.push(vectorFromArray(rows.map((r) => NAMES[r.label]), new Utf8()).data[0]);
  } else {
    fields.push(new Field('label', new Int64(), true));
    cols.push(vectorFromArray(rows.map((r) => BigInt(r.label)), new Int64()).data[0]);
  }
  fields.push(heatmapField);
  cols.push(heat);
  if (variant !== 'noCaption') {
    fields.push(new Field('caption', new Utf8(), true));
    cols.push(vectorFromArray(rows.map((r) => r.caption), new Utf8()).data[0]);
  }
  const schema = new Schema(fields, META);
  return new RecordBatch(schema, makeData({ type: new Struct(fields), length: rows.length, nullCount: 0, children: cols }));
}

// shardTable is shard k's rows as a table of 2 record batches (the first
// ceil(n/2) rows, then the rest).
function shardTable(k, variant) {
  const rows = ROWS.slice(START[k], START[k] + SHARD_ROWS[k]);
  const half = Math.ceil(rows.length / 2);
  return new Table([batch(rows.slice(0, half), variant), batch(rows.slice(half), variant)]);
}

// parquet writes t as Parquet of 2 row groups (the same split as its
// batches), SNAPPY, the features also in the footer's key_value_metadata.
function parquet(t) {
  const props = new pw.WriterPropertiesBuilder()
    .setCreatedBy('parquet-rs version 59.3.0 (parquet-wasm 0.8.0)')
    .setKeyValueMetadata(META)
    .setMaxRowGroupSize(t.batches[0].numRows)
    .setCompression(pw.Compression.SNAPPY)
    .setStatisticsEnabled(pw.EnabledStatistics.Chunk)
    .build();
  return pw.writeParquet(pw.Table.fromIPCStream(tableToIPC(t, 'stream')), props);
}

// check reads bytes back (Parquet through parquet-wasm, IPC through
// apache-arrow) and compares them with shard k's rows.
function check(bytes, k, format, variant) {
  const t = format === 'parquet' ? tableFromIPC(pw.readParquet(bytes).intoIPCStream()) : tableFromIPC(bytes);
  const rows = ROWS.slice(START[k], START[k] + SHARD_ROWS[k]);
  const where = `shard ${k} (${format}, ${variant})`;
  assert(t.numRows === rows.length, where + ' rows');
  assert(t.schema.metadata.get('huggingface') === pyJSON(FEATURES), where + ' huggingface metadata');
  assert(t.schema.fields.find((f) => f.name === 'heatmap').metadata.get('ARROW:extension:name') === FST, where + ' extension');
  const half = Math.ceil(rows.length / 2);
  const groups = format === 'parquet'
    ? parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)).row_groups.map((g) => Number(g.num_rows))
    : t.batches.map((b) => b.numRows);
  assert(groups.join() === [half, rows.length - half].join(), `${where} row groups or batches ${groups}`);
  rows.forEach((r, i) => {
    assert(Number(t.getChild('id').get(i)) === r.id, `${where} row ${i} id`);
    const label = t.getChild('label').get(i);
    assert(variant === 'labelText' ? label === NAMES[r.label] : Number(label) === r.label, `${where} row ${i} label`);
    assert([...t.getChild('heatmap').get(i)].join() === r.heatmap.join(), `${where} row ${i} heatmap`);
    const img = t.getChild('image').get(i);
    assert([...img.bytes].join() === [...png(IW, IH, r.pixels)].join() && img.path === r.path, `${where} row ${i} image`);
    const caption = t.getChild('caption');
    assert(variant === 'noCaption' ? caption === null : caption.get(i) === r.caption, `${where} row ${i} caption`);
  });
}

// write writes shard k of a set in format ('parquet', 'file' or
// 'stream') and returns its entry in the twin.
function write(dir, k, format, variant = 'base') {
  const t = shardTable(k, variant);
  const ext = format === 'parquet' ? 'parquet' : 'arrow';
  const bytes = format === 'parquet' ? parquet(t) : tableToIPC(t, format);
  check(bytes, k, format, variant);
  const name = shardName(k, ext);
  writeFileSync(join(OUT, dir, name), bytes);
  return {
    name, format: { parquet: 'Parquet', file: 'Arrow IPC file', stream: 'Arrow IPC stream' }[format],
    start: START[k], rows: SHARD_ROWS[k], groups: t.batches.map((b) => b.numRows), size: bytes.length, variant,
  };
}

const sets = {};
for (const dir of ['parquet', 'mixed', 'mismatch']) mkdirSync(join(OUT, dir), { recursive: true });
sets.parquet = { files: range(3, (k) => write('parquet', k, 'parquet')), skipped: ['notes.txt'] };
writeFileSync(join(OUT, 'parquet', 'notes.txt'), 'Notes on this dataset: its shards are the .parquet files beside this one.\n');
sets.mixed = { files: [write('mixed', 0, 'parquet'), write('mixed', 1, 'file'), write('mixed', 2, 'stream')] };
sets.mismatch = { files: [write('mismatch', 0, 'parquet'), write('mismatch', 1, 'parquet', 'labelText'), write('mismatch', 2, 'parquet', 'noCaption')] };

writeFileSync(join(OUT, '..', 'shards_expected.json'), JSON.stringify({
  about: 'Written by gen_shards.mjs: the rows of the 3-shard datasets in testdata/shards/, by global row number; ' +
    'the image of row g is a 6×4 PNG of pixel (y, x) = ((40x + 13g) mod 256, (60y + 29g) mod 256, (17g + 5x + 3y) mod 256); ' +
    'heatmap is float32 [4, 4] (H, W), element i = g + i/16. In the mismatch set, shard 1 label is utf8 (the name), shard 2 has no caption.',
  names: NAMES,
  image: { width: IW, height: IH },
  sets,
  rows: ROWS.map((r, g) => ({
    row: g, shard: START.findLastIndex((s) => s <= g), id: r.id, label: r.label, label_name: NAMES[r.label],
    caption: r.caption, heatmap: { shape: [4, 4], values: r.heatmap }, image: { path: r.path, pixels: r.pixels },
  })),
}) + '\n');
