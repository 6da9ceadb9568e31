// Writes the Parquet files parquet_conformance.mjs checks besides the
// corpus, for the shapes the page reads most and the types and codecs the
// corpus lacks, into the directory given:
//
//   hf_like.parquet       a Hugging Face image set as arrow-rs writes it:
//                         image struct{bytes, path}, label int64, caption
//                         string, a 16×16 float32 fixed_shape_tensor;
//                         SNAPPY, 10-row row groups, nulls in each
//   hf_like_hyparquet.parquet
//                         the same rows written by hyparquet-writer: no
//                         ARROW:schema and no page index (the tensor a list)
//   bench_like.parquet    bench/browser's Parquet layout, smaller: id,
//                         score, label and a 224×224×3 uint8
//                         fixed_shape_tensor; ZSTD, a page index, 32 KiB
//                         pages, 4-row row groups
//   declined.parquet      a timestamp and a date column, which the engine
//                         declines (parquet-wasm reads the file)
//   types_<codec>.parquet integers of every width, floats, bool, strings
//                         and binaries (large ones too), lists of numbers,
//                         of structs, large lists, fixed-size lists, nulls
//                         and empty lists, dictionary pages; one per
//                         codec: UNCOMPRESSED, GZIP, BROTLI, LZ4_RAW, ZSTD
//
// Usage: node parquet_conformance_gen.mjs OUT_DIR (prints the paths).
// The contents come from a fixed seed: the same on every run.

import * as fl from '@uwdata/flechette';
import * as pw from 'parquet-wasm';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seeded } from './parquet_worker_node.mjs';

const [out] = process.argv.slice(2);
const { rand, range, bytes } = seeded();
const fst = (shape) => new Map([['ARROW:extension:name', 'arrow.fixed_shape_tensor'], ['ARROW:extension:metadata', JSON.stringify({ shape })]]);

// write writes a flechette table with parquet-wasm (arrow-rs).
function write(name, fields, columns, { codec = 'SNAPPY', rowGroup = 10, pageBytes = 1 << 20, dictionary = true, metadata = null } = {}) {
  const schema = { version: fl.Version.V5, endianness: fl.Endianness.Little, fields, metadata };
  const cols = fields.map((f, i) => fl.columnFromValues(columns[i], f.type));
  const ipc = fl.tableToIPC(new fl.Table(schema, cols), { format: 'stream' });
  const props = new pw.WriterPropertiesBuilder()
    .setMaxRowGroupSize(rowGroup)
    .setCompression(pw.Compression[codec])
    .setDictionaryEnabled(dictionary)
    .setStatisticsEnabled(pw.EnabledStatistics.Page)
    .setDataPageSizeLimit(pageBytes)
    .build();
  const data = pw.writeParquet(pw.Table.fromIPCStream(ipc), props);
  const path = join(out, name);
  writeFileSync(path, data);
  console.log(path);
}

// A Hugging Face image set.
const n = 35;
const hf = {
  image: range(n, (i) => (i % 11 === 5 ? null : { bytes: i % 7 === 3 ? null : bytes(200 + i), path: i % 5 === 0 ? null : `img_${i}.jpg` })),
  label: range(n, (i) => (i % 9 === 4 ? null : BigInt(i % 3))),
  caption: range(n, (i) => (i % 6 === 1 ? null : i % 6 === 2 ? '' : `a caption ${i} ✓`)),
  tensor: range(n, (i) => (i % 8 === 7 ? null : range(256, (k) => (k === 3 ? NaN : k === 5 ? -0 : Math.fround(rand() - 0.5))))),
};
write('hf_like.parquet', [
  fl.field('image', fl.struct([fl.field('bytes', fl.binary()), fl.field('path', fl.utf8())])),
  fl.field('label', fl.int64()),
  fl.field('caption', fl.utf8()),
  fl.field('tensor', fl.fixedSizeList(fl.field('item', fl.float32()), 256), true, fst([16, 16])),
], [hf.image, hf.label, hf.caption, hf.tensor], {
  metadata: new Map([['huggingface', '{"info": {"features": {"image": {"_type": "Image"}}}}']]),
});

writeFileSync(join(out, 'hf_like_hyparquet.parquet'), new Uint8Array(parquetWriteBuffer({
  columnData: [
    { name: 'image', data: hf.image, offsetIndex: false },
    { name: 'label', data: hf.label, offsetIndex: false },
    { name: 'caption', data: hf.caption, offsetIndex: false },
    { name: 'tensor', data: hf.tensor.map((t) => t && t.map((x) => (Number.isNaN(x) ? 0 : x))), offsetIndex: false },
  ],
  schema: [
    { name: 'root', num_children: 4 },
    { name: 'image', repetition_type: 'OPTIONAL', num_children: 2 },
    { name: 'bytes', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
    { name: 'path', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    { name: 'label', type: 'INT64', repetition_type: 'OPTIONAL' },
    { name: 'caption', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    { name: 'tensor', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'FLOAT', repetition_type: 'REQUIRED' },
  ],
  rowGroupSize: 10,
})));
console.log(join(out, 'hf_like_hyparquet.parquet'));

// bench/browser's Parquet layout.
const b = 10;
write('bench_like.parquet', [
  fl.field('id', fl.int64(), false),
  fl.field('score', fl.float32()),
  fl.field('label', fl.utf8()),
  fl.field('image', fl.fixedSizeList(fl.field('item', fl.uint8()), 224 * 224 * 3), true, fst([224, 224, 3])),
], [
  range(b, (i) => BigInt(i)),
  range(b, (i) => Math.fround(i / 3)),
  range(b, (i) => ['cat', 'dog', 'bird'][i % 3]),
  range(b, (i) => (i === 6 ? null : Uint8Array.from(range(224 * 224 * 3, (k) => (k * (i + 1)) & 255)))),
], { codec: 'ZSTD', rowGroup: 4, pageBytes: 32 << 10, dictionary: false });

// Types and codecs.
const m = 23;
const typeFields = [
  fl.field('i8', fl.int8()), fl.field('i16', fl.int16()), fl.field('i32', fl.int32(), false), fl.field('i64', fl.int64()),
  fl.field('u8', fl.uint8()), fl.field('u16', fl.uint16()), fl.field('u32', fl.uint32()), fl.field('u64', fl.uint64()),
  fl.field('f32', fl.float32()), fl.field('f64', fl.float64()), fl.field('flag', fl.bool()),
  fl.field('word', fl.utf8()), fl.field('big_word', fl.largeUtf8()), fl.field('blob', fl.binary()), fl.field('big_blob', fl.largeBinary()),
  fl.field('points', fl.list(fl.field('item', fl.struct([fl.field('x', fl.float64()), fl.field('tag', fl.utf8())])))),
  fl.field('ragged', fl.largeList(fl.field('item', fl.list(fl.field('item', fl.int16()))))),
  fl.field('pair', fl.fixedSizeList(fl.field('item', fl.int32(), false), 2), false),
  fl.field('deep', fl.struct([fl.field('inner', fl.struct([fl.field('v', fl.int32())])), fl.field('w', fl.float32())])),
  fl.field('nums', fl.list(fl.field('item', fl.float64()))),
  fl.field('ids', fl.list(fl.field('item', fl.int64(), false)), false),
  fl.field('bytes8', fl.fixedSizeList(fl.field('item', fl.uint8()), 3)),
];
const nul = (i, k, v) => ((i + k) % 5 === 0 ? null : v);
const typeCols = [
  range(m, (i) => nul(i, 0, (i * 37) % 256 - 128)), range(m, (i) => nul(i, 1, i * 1000 - 11000)), range(m, (i) => i * 100003 - 1e6),
  range(m, (i) => nul(i, 2, BigInt(i) * 9007199254740993n - 2n ** 62n)),
  range(m, (i) => nul(i, 3, (i * 53) % 256)), range(m, (i) => nul(i, 4, (i * 4099) % 65536)), range(m, (i) => nul(i, 0, 4294967295 - i)),
  range(m, (i) => nul(i, 1, 18446744073709551615n - BigInt(i))),
  range(m, (i) => nul(i, 2, i === 4 ? Infinity : Math.fround(i * 0.1))), range(m, (i) => nul(i, 3, i === 6 ? NaN : i / 7)),
  range(m, (i) => nul(i, 4, i % 3 === 0)),
  range(m, (i) => nul(i, 0, ['α', 'beta', '', 'gamma'][i % 4])), range(m, (i) => nul(i, 1, `long ${i}`)),
  range(m, (i) => nul(i, 2, bytes(i % 4))), range(m, (i) => nul(i, 3, bytes(i % 3))),
  range(m, (i) => nul(i, 4, range(i % 4, (k) => (k === 1 ? null : { x: k / 2, tag: k === 2 ? null : `t${k}` })))),
  range(m, (i) => nul(i, 0, range(i % 3, (k) => (k === 1 ? null : range(k + (i % 2), (j) => (j === 1 ? null : j - i)))))),
  range(m, (i) => [i, -i]),
  range(m, (i) => nul(i, 1, { inner: i % 4 === 0 ? null : { v: i % 3 === 0 ? null : i }, w: i / 4 })),
  range(m, (i) => nul(i, 2, range(i % 5, (k) => (k === 2 ? null : k * 1.5 - i)))),
  range(m, (i) => range(i % 4, (k) => BigInt(k - i) * 3000000000n)),
  range(m, (i) => nul(i, 3, [i % 256, i === 7 ? null : 255 - i, 128])),
];
for (const codec of ['UNCOMPRESSED', 'GZIP', 'BROTLI', 'LZ4_RAW', 'ZSTD']) {
  write(`types_${codec.toLowerCase()}.parquet`, typeFields, typeCols, { codec, rowGroup: 8 });
}

// Types the engine leaves to parquet-wasm.
write('declined.parquet', [
  fl.field('id', fl.int32()),
  fl.field('when', fl.timestamp(fl.TimeUnit.MICROSECOND, 'UTC')),
  fl.field('day', fl.dateDay()),
], [range(5, (i) => i), range(5, (i) => (i === 2 ? null : 1.7e12 + i * 1000)), range(5, (i) => 1.7e12 + i * 864e5)]);
