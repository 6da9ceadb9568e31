// gen_turtle.mjs — writes turtle_nested.arrow, an IPC stream whose `runs`
// column is the proposed arrow.turtle extension type (dev@arrow.apache.org,
// branch westonpace/arrow feat/turtle-extension-type), written by a non-Go
// Arrow implementation: npm `apache-arrow` 21.2.0. apache-arrow knows no
// extension types: a turtle column is its storage, Struct<label: utf8,
// value: binary>, with the extension name and metadata on the field.
//
// Regenerate:   cd testdata && npm ci && node gen_turtle.mjs
//
// The turtle metadata is {"schema": base64(S)} where S is the declared
// schema "serialized using the IPC streaming format" (the proposal's words):
// a complete IPC stream holding only the schema, that is the Schema message
// and the end-of-stream marker, exactly what tableToIPC writes for a table
// with the schema and no batches (arrow-go's ipc.Writer closed without a
// batch writes the same). Any IPC stream reader opens it.
//
// Each value is "a record batch serialized using the Arrow IPC streaming
// format": tableToIPC of a one-batch table (Schema message, record batch
// message, end-of-stream marker). Two values are instead the lone record
// batch message (those bytes without the Schema message and the marker), a
// form readers accept leniently.
//
// Layout (every value listed in turtle_expected.json):
//   outer:  id: int32, runs: arrow.turtle<inner>
//   inner:  image: arrow.fixed_shape_tensor uint8 [4,4,3] (H,W,C),
//           exposure: float32, sub: arrow.turtle<leaf>   (the two-level case)
//   leaf:   k: int32, v: float64
// Outer rows: 1 "sunny" (2 inner rows, one with a sub-turtle, one null),
// 2 null, 3 "" (an empty label; its sub-turtle's value is a lone record
// batch message), 4 "mismatch" (a batch of another schema: exposure is
// float64), 5 "lone-wrong" (a lone record batch message of another schema:
// only a decoder notices), 6 "lone" (a lone record batch message of the
// inner schema).

import {
  Field, Schema, Struct, FixedSizeList, RecordBatch, Table,
  Int32, Uint8, Float32, Float64, Utf8, Binary,
  makeData, tableToIPC, tableFromIPC,
} from 'apache-arrow';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = dirname(fileURLToPath(import.meta.url));
const WRITER = 'apache-arrow-js 21.2.0';
const enc = new TextEncoder();
function assert(cond, msg) { if (!cond) throw new Error('self-check failed: ' + msg); }

const extMeta = (name, json) => new Map([['ARROW:extension:name', name], ['ARROW:extension:metadata', json]]);
const schemaStream = (schema) => tableToIPC(new Table(schema), 'stream');
const b64 = (bytes) => Buffer.from(bytes).toString('base64');
const turtleField = (name, schema) => new Field(name,
  new Struct([new Field('label', new Utf8(), true), new Field('value', new Binary(), true)]), true,
  extMeta('arrow.turtle', JSON.stringify({ schema: b64(schemaStream(schema)) })));

function validity(rows) {
  const bm = new Uint8Array(Math.max(1, Math.ceil(rows.length / 8)));
  let nulls = 0;
  rows.forEach((r, i) => { if (r === null) nulls++; else bm[i >> 3] |= 1 << (i & 7); });
  return { bm, nulls };
}
function varData(type, items) { // utf8 / binary from Uint8Arrays
  const offsets = new Int32Array(items.length + 1);
  items.forEach((b, i) => { offsets[i + 1] = offsets[i] + b.length; });
  const data = new Uint8Array(offsets[items.length]);
  items.forEach((b, i) => data.set(b, offsets[i]));
  return makeData({ type, length: items.length, nullCount: 0, valueOffsets: offsets, data });
}
// A turtle column's Data: rows are {label, bytes} or null.
function turtleData(field, rows) {
  const { bm, nulls } = validity(rows);
  const labels = rows.map((r) => (r ? enc.encode(r.label) : new Uint8Array(0)));
  const values = rows.map((r) => (r ? r.bytes : new Uint8Array(0)));
  return makeData({
    type: field.type, length: rows.length, nullCount: nulls, nullBitmap: nulls ? bm : undefined,
    children: [varData(new Utf8(), labels), varData(new Binary(), values)],
  });
}
const prim = (type, Arr, vals) => makeData({ type, length: vals.length, nullCount: 0, data: Arr.from(vals) });
function batch(schema, children, length) {
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
}
const streamOf = (b) => tableToIPC(new Table([b]), 'stream');
// The lone record batch message: the stream without its Schema message and
// end-of-stream marker.
function loneMessage(b) {
  const full = streamOf(b), head = schemaStream(b.schema);
  const schemaLen = head.length - 8;
  assert(Buffer.from(full.subarray(0, schemaLen)).equals(Buffer.from(head.subarray(0, schemaLen))), 'schema message prefix');
  assert(Buffer.from(full.subarray(full.length - 8)).equals(Buffer.from([255, 255, 255, 255, 0, 0, 0, 0])), 'EOS');
  return full.slice(schemaLen, full.length - 8);
}

// ------------------------------------------------------------ schemas

const leafSchema = new Schema([new Field('k', new Int32(), true), new Field('v', new Float64(), true)]);
const SHAPE = [4, 4, 3];
const imageField = new Field('image', new FixedSizeList(48, new Field('item', new Uint8(), true)), true,
  extMeta('arrow.fixed_shape_tensor', JSON.stringify({ shape: SHAPE, dim_names: ['H', 'W', 'C'] })));
const innerSchema = new Schema([imageField, new Field('exposure', new Float32(), true), turtleField('sub', leafSchema)]);
const otherSchema = new Schema([imageField, new Field('exposure', new Float64(), true), turtleField('sub', leafSchema)]);
const wrongSchema = new Schema([new Field('x', new Int32(), true)]);
const outerSchema = new Schema([new Field('id', new Int32(), true), turtleField('runs', innerSchema)],
  new Map([['writer', WRITER]]));

// ------------------------------------------------------------ values

// Pixel (h, w, c) of image `seed`: (seed*53 + h*31 + w*7 + c*101) mod 256.
const image = (seed) => Array.from({ length: 48 }, (_, i) => {
  const h = Math.floor(i / 12), w = Math.floor(i / 3) % 4, c = i % 3;
  return (seed * 53 + h * 31 + w * 7 + c * 101) % 256;
});

function leafBatch({ k, v }) {
  return batch(leafSchema, [prim(new Int32(), Int32Array, k), prim(new Float64(), Float64Array, v)], k.length);
}
// An inner batch from {images: [seed...], exposure: [...], sub: [row|null]},
// sub rows {label, leaf: {k, v}, lone?}.
function innerBatch(spec, schema = innerSchema) {
  const n = spec.images.length;
  const imgs = makeData({
    type: imageField.type, length: n, nullCount: 0,
    child: prim(new Uint8(), Uint8Array, spec.images.flatMap(image)),
  });
  const Arr = schema === otherSchema ? Float64Array : Float32Array;
  const exp = prim(schema.fields[1].type, Arr, spec.exposure);
  const subRows = spec.sub.map((s) => s && { label: s.label, bytes: s.lone ? loneMessage(leafBatch(s.leaf)) : streamOf(leafBatch(s.leaf)) });
  return batch(schema, [imgs, exp, turtleData(schema.fields[2], subRows)], n);
}

const sunny = {
  images: [1, 2], exposure: [0.5, 1.25],
  sub: [{ label: 'a', leaf: { k: [1, 2, 3], v: [0.5, -1, 2.25] } }, null],
};
const empty = {
  images: [3], exposure: [-2.5],
  sub: [{ label: '', leaf: { k: [7], v: [1e-3] }, lone: true }],
};
const lone = { images: [4], exposure: [8], sub: [null] };

const rows = [
  { id: 1, run: { label: 'sunny', bytes: streamOf(innerBatch(sunny)) }, expect: { label: 'sunny', form: 'stream', batch: sunny } },
  { id: 2, run: null, expect: null },
  { id: 3, run: { label: '', bytes: streamOf(innerBatch(empty)) }, expect: { label: '', form: 'stream', batch: empty } },
  { id: 4, run: { label: 'mismatch', bytes: streamOf(innerBatch(sunny, otherSchema)) }, expect: { label: 'mismatch', error: 'schema' } },
  { id: 5, run: { label: 'lone-wrong', bytes: loneMessage(batch(wrongSchema, [prim(new Int32(), Int32Array, [9, 8, 7])], 3)) }, expect: { label: 'lone-wrong', error: 'decode' } },
  { id: 6, run: { label: 'lone', bytes: loneMessage(innerBatch(lone)) }, expect: { label: 'lone', form: 'lone', batch: lone } },
];

const outer = batch(outerSchema, [prim(new Int32(), Int32Array, rows.map((r) => r.id)), turtleData(outerSchema.fields[1], rows.map((r) => r.run))], rows.length);
const bytes = tableToIPC(new Table([outer]), 'stream');
writeFileSync(join(OUT, 'turtle_nested.arrow'), bytes);

// ------------------------------------------------------------ expected JSON

const tensor = (seed) => ({ shape: SHAPE, values: image(seed) });
function expectBatch(spec) {
  return {
    num_rows: spec.images.length,
    image: spec.images.map(tensor),
    exposure: spec.exposure,
    sub: spec.sub.map((s) => s && {
      label: s.label, form: s.lone ? 'lone' : 'stream',
      batch: { num_rows: s.leaf.k.length, k: s.leaf.k, v: s.leaf.v },
    }),
  };
}
const expected = {
  writer: WRITER,
  file: 'turtle_nested.arrow',
  format: 'stream',
  extension_metadata: {
    runs: JSON.parse(outerSchema.fields[1].metadata.get('ARROW:extension:metadata')),
    sub: JSON.parse(innerSchema.fields[2].metadata.get('ARROW:extension:metadata')),
  },
  inner_fields: innerSchema.fields.map((f) => f.name),
  leaf_fields: leafSchema.fields.map((f) => f.name),
  rows: rows.map((r) => ({
    id: r.id,
    runs: r.expect && (r.expect.error ? r.expect : { label: r.expect.label, form: r.expect.form, batch: expectBatch(r.expect.batch) }),
  })),
};
writeFileSync(join(OUT, 'turtle_expected.json'), JSON.stringify(expected, null, 1) + '\n');

// ------------------------------------------------------------ self-check

const back = tableFromIPC(bytes);
assert(back.numRows === rows.length, 'row count');
const runs = back.getChild('runs');
rows.forEach((r, i) => {
  assert(back.getChild('id').get(i) === r.id, `id ${i}`);
  const v = runs.get(i);
  assert((v === null) === (r.run === null), `null ${i}`);
  if (v) {
    assert(v.label === r.run.label, `label ${i}`);
    assert(Buffer.from(v.value).equals(Buffer.from(r.run.bytes)), `value ${i}`);
  }
});
const first = tableFromIPC(rows[0].run.bytes);
assert(first.numRows === 2 && first.getChild('exposure').get(1) === 1.25, 'inner batch');
console.log(`wrote turtle_nested.arrow (${bytes.length} bytes) and turtle_expected.json`);
