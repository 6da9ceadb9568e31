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
//   types_<codec>.parquet integers of every width, floats, bool, strings
//                         and binaries (large ones too), lists of numbers,
//                         of structs, large lists, fixed-size lists, nulls
//                         and empty lists, dictionary pages; one per
//                         codec: UNCOMPRESSED, GZIP, BROTLI, LZ4_RAW, ZSTD
//   times.parquet, times_delta.parquet
//                         timestamps of every unit, with and without time
//                         zones, Date32, Date64, Time32, Time64, durations,
//                         in lists, fixed-size lists and structs too
//                         (arrow-rs); dictionary pages, or
//                         DELTA_BINARY_PACKED in data pages v2
//   dicts.parquet, dicts_fallback.parquet
//                         dictionary columns (pandas' and polars' index and
//                         value types, binaries, integers, decimals, in a
//                         list and a struct; arrow-rs), the second with
//                         dictionaries too small, so pages fall back to
//                         PLAIN
//   decimals.parquet, decimals_plain.parquet
//                         Decimal128 and Decimal256 of every storage,
//                         float16 (NaN, ±0, ±Infinity, subnormals) alone,
//                         as a fixed_shape_tensor and in a list,
//                         fixed-size binaries, nested (arrow-rs);
//                         dictionary pages, or PLAIN in data pages v2
//   types_hyparquet.parquet, types_hyparquet_encodings.parquet
//                         hyparquet-writer's: no ARROW:schema, timestamps,
//                         dates, times, decimals, FLOAT16, UUID, bare
//                         FIXED_LEN_BYTE_ARRAY, JSON, ENUM, BSON, GEOMETRY,
//                         GEOGRAPHY; dictionary pages, or DELTA_*,
//                         BYTE_STREAM_SPLIT
//   hinted.parquet        hyparquet-writer's columns under an ARROW:schema
//                         that differs as pyarrow's does (seconds stored
//                         as milliseconds, Date64 as days, time zones, a
//                         categorical over strings), read by arrow-rs's
//                         rules
//   declined.parquet, declined_unit.parquet
//                         a map; nanoseconds under a millisecond
//                         ARROW:schema type: the engine declines them
//                         (parquet-wasm reads the files)
//
// Usage: node parquet_conformance_gen.mjs OUT_DIR (prints the paths).
// The contents come from a fixed seed: the same on every run.

import * as fl from '@uwdata/flechette';
import * as pw from 'parquet-wasm';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seeded } from './parquet_worker_node.mjs';
import { hfParquet } from './hf.mjs';

const [out] = process.argv.slice(2);
const { rand, range, bytes } = seeded();
const fst = (shape) => new Map([['ARROW:extension:name', 'arrow.fixed_shape_tensor'], ['ARROW:extension:metadata', JSON.stringify({ shape })]]);

// write writes a flechette table with parquet-wasm (arrow-rs).
// storage: per column, the type flechette builds its values as (the
// integers a timestamp, date, time, duration or float16 column stores, so
// values are exact; by default the field's own type); encoding: a
// parquet-wasm Encoding for every column; v2: data pages v2;
// dictionaryBytes: the dictionary page limit; batchRows: rows per write
// batch (arrow-rs checks the page limits between batches).
function write(name, fields, columns, { codec = 'SNAPPY', rowGroup = 10, pageBytes = 1 << 20, dictionary = true, metadata = null, storage = [], encoding = null, v2 = false, dictionaryBytes = 0, batchRows = 0 } = {}) {
  const schema = { version: fl.Version.V5, endianness: fl.Endianness.Little, fields, metadata };
  const cols = fields.map((f, i) => fl.columnFromValues(columns[i], storage[i] ?? f.type, { useBigInt: true }));
  const ipc = fl.tableToIPC(new fl.Table(schema, cols), { format: 'stream' });
  let props = new pw.WriterPropertiesBuilder()
    .setMaxRowGroupSize(rowGroup)
    .setCompression(pw.Compression[codec])
    .setDictionaryEnabled(dictionary)
    .setStatisticsEnabled(pw.EnabledStatistics.Page)
    .setDataPageSizeLimit(pageBytes);
  if (encoding !== null) props = props.setEncoding(encoding);
  if (v2) props = props.setWriterVersion(pw.WriterVersion.V2);
  if (dictionaryBytes) props = props.setDictionaryPageSizeLimit(dictionaryBytes);
  if (batchRows) props = props.setWriteBatchSize(batchRows);
  const data = pw.writeParquet(pw.Table.fromIPCStream(ipc), props.build());
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
  ...hfParquet(hf, [[
    { name: 'tensor', data: hf.tensor.map((t) => t && t.map((x) => (Number.isNaN(x) ? 0 : x))), offsetIndex: false },
    { name: 'tensor', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', type: 'FLOAT', repetition_type: 'REQUIRED' },
  ]]),
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

// Timestamps of every unit, with and without a time zone, dates, times
// and durations, alone, in lists, fixed-size lists and structs, as arrow-rs
// writes them (its ARROW:schema says the Arrow types): with dictionary
// pages, and with DELTA_BINARY_PACKED in data pages v2.
const U = fl.TimeUnit;
const big = (i, scale) => BigInt(Math.floor(rand() * 2 ** 31) - 2 ** 30) * scale + BigInt(i);
const i64 = fl.int64();
const i32 = fl.int32();
const timeFields = [
  [fl.field('ts_s', fl.timestamp(U.SECOND)), i64, (i) => big(i, 1n)],
  [fl.field('ts_ms_paris', fl.timestamp(U.MILLISECOND, 'Europe/Paris')), i64, (i) => big(i, 1000n)],
  [fl.field('ts_us_utc', fl.timestamp(U.MICROSECOND, 'UTC'), false), i64, (i) => big(i, 1000003n)],
  [fl.field('ts_us', fl.timestamp(U.MICROSECOND)), i64, (i) => big(i, 999983n)],
  [fl.field('ts_ns_ist', fl.timestamp(U.NANOSECOND, '+05:30')), i64, (i) => big(i, 1000000007n)],
  [fl.field('ts_ns', fl.timestamp(U.NANOSECOND)), i64, (i) => (i === 3 ? -(2n ** 63n) : i === 4 ? 2n ** 63n - 1n : big(i, 999999937n))],
  [fl.field('day', fl.dateDay()), i32, (i) => Math.floor(rand() * 80000) - 40000],
  [fl.field('day_ms', fl.dateMillisecond()), i64, (i) => BigInt(i * 731 - 9000) * 86400000n],
  [fl.field('t_s', fl.time(U.SECOND)), i32, (i) => (i * 3877) % 86400],
  [fl.field('t_ms', fl.time(U.MILLISECOND)), i32, (i) => (i * 3877001) % 86400000],
  [fl.field('t_us', fl.time(U.MICROSECOND)), i64, (i) => BigInt(i) * 3756000001n % 86400000000n],
  [fl.field('t_ns', fl.time(U.NANOSECOND)), i64, (i) => BigInt(i) * 3756000000017n % 86400000000000n],
  [fl.field('dur_s', fl.duration(U.SECOND)), i64, (i) => big(i, 1n)],
  [fl.field('dur_ms', fl.duration(U.MILLISECOND)), i64, (i) => big(i, 7n)],
  [fl.field('dur_us', fl.duration(U.MICROSECOND)), i64, (i) => big(i, 11n)],
  [fl.field('dur_ns', fl.duration(U.NANOSECOND)), i64, (i) => big(i, 13n)],
  [fl.field('events', fl.list(fl.field('item', fl.timestamp(U.MILLISECOND, 'UTC')))), fl.list(fl.field('item', i64)),
    (i) => range(i % 4, (k) => (k === 1 ? null : big(k, 1000n)))],
  [fl.field('pair', fl.fixedSizeList(fl.field('item', fl.dateDay()), 2), false), fl.fixedSizeList(fl.field('item', i32), 2),
    (i) => [i * 17 - 100, i === 5 ? null : i * 3]],
  [fl.field('span', fl.struct([fl.field('start', fl.timestamp(U.MICROSECOND)), fl.field('length', fl.duration(U.MICROSECOND))])),
    fl.struct([fl.field('start', i64), fl.field('length', i64)]),
    (i) => ({ start: i % 3 === 0 ? null : big(i, 1000n), length: big(i, 1n) })],
];
const timeCols = timeFields.map(([f, , v], k) => range(m, (i) => (f.nullable && (i + k) % 5 === 0 ? null : v(i))));
write('times.parquet', timeFields.map((x) => x[0]), timeCols, { rowGroup: 8, storage: timeFields.map((x) => x[1]) });
write('times_delta.parquet', timeFields.map((x) => x[0]), timeCols, {
  rowGroup: 8, storage: timeFields.map((x) => x[1]), dictionary: false, encoding: pw.Encoding.DELTA_BINARY_PACKED, v2: true, codec: 'ZSTD',
});

// Dictionary-typed columns as pandas (categorical: dictionary<utf8,
// int8>) and polars (Categorical: dictionary<large_utf8, uint32>) write
// them, and others, alone, in a list and a struct, as arrow-rs writes
// them: dictionary pages, and (dicts_fallback.parquet) dictionaries too
// small for the values, so pages fall back to PLAIN.
const words = ['red', 'green', 'blue', 'ü ✓', ''];
const dict = (v, k = fl.int32()) => fl.dictionary(v, k);
const dictFields = [
  [fl.field('cat', dict(fl.utf8())), (i) => words[i % 5]],
  [fl.field('pandas', dict(fl.utf8(), fl.int8())), (i) => words[(i * 3) % 4]],
  [fl.field('polars', dict(fl.largeUtf8(), fl.uint32())), (i) => words[(i * 7) % 5]],
  [fl.field('bin', dict(fl.binary(), fl.int16())), (i) => Uint8Array.of(i % 3, 7)],
  [fl.field('num', dict(fl.int64())), (i) => BigInt(i % 4) * -3000000000n],
  [fl.field('big', dict(fl.uint64(), fl.uint8())), (i) => [2n ** 64n - 1n, 2n ** 62n + 1n, 0n][i % 3]],
  [fl.field('small', dict(fl.int8(), fl.uint8())), (i) => [-128, 127, 0][i % 3]],
  [fl.field('price', dict(fl.decimal(10, 2))), (i) => [12345n, -1n, 9999999999n][i % 3]],
  [fl.field('uniq', dict(fl.utf8()), false), (i) => `value ${i} ${'x'.repeat(i)}`],
  [fl.field('tags', fl.list(fl.field('item', dict(fl.utf8())))), (i) => range(i % 3, (k) => (k === 1 ? null : words[(i + k) % 5]))],
  [fl.field('meta', fl.struct([fl.field('kind', dict(fl.utf8(), fl.int16())), fl.field('n', fl.int32())])), (i) => ({ kind: i % 4 ? words[i % 3] : null, n: i })],
];
const dictCols = dictFields.map(([f, v], k) => range(m, (i) => (f.nullable && (i + k) % 6 === 0 ? null : v(i))));
write('dicts.parquet', dictFields.map((x) => x[0]), dictCols, { rowGroup: 8 });
write('dicts_fallback.parquet', dictFields.map((x) => x[0]), dictCols, { rowGroup: 16, dictionaryBytes: 24, pageBytes: 64, batchRows: 2, codec: 'UNCOMPRESSED' });

// Decimals (INT32, INT64 and FIXED_LEN_BYTE_ARRAY of 16 and 32 bytes as
// arrow-rs stores them), float16 (NaN, ±0, ±Infinity, subnormals: their
// bits), fixed-size binaries, alone and nested.
const f16 = [0x7e00, 0x8000, 0x0000, 0x7c00, 0xfc00, 0x0001, 0x03ff, 0x7bff, 0x3c00, 0xc000, 0x3555];
const decFields = [
  [fl.field('d9', fl.decimal(9, 2)), null, (i) => BigInt(i * 4099 - 50000)],
  [fl.field('d18', fl.decimal(18, 4)), null, (i) => big(i, 100003n)],
  [fl.field('d38', fl.decimal(38, 10), false), null, (i) => (i % 2 ? -1n : 1n) * (10n ** 37n + big(i, 1000000007n))],
  [fl.field('d76', fl.decimal(76, 20, 256)), null, (i) => (i % 3 ? 1n : -1n) * (10n ** 75n - big(i, 10n ** 30n))],
  [fl.field('d10_256', fl.decimal(10, 2, 256)), null, (i) => BigInt(i * 7919 - 3)],
  [fl.field('half', fl.float16()), fl.uint16(), (i) => f16[i % f16.length]],
  [fl.field('fsb', fl.fixedSizeBinary(5)), null, () => bytes(5)],
  [fl.field('id16', fl.fixedSizeBinary(16), false), null, () => bytes(16)],
  [fl.field('prices', fl.list(fl.field('item', fl.decimal(12, 3)))), null, (i) => range(i % 4, (k) => (k === 2 ? null : BigInt(k * 1000 - i)))],
  [fl.field('emb', fl.fixedSizeList(fl.field('item', fl.float16()), 6), false, fst([2, 3])), fl.fixedSizeList(fl.field('item', fl.uint16()), 6),
    (i) => range(6, (k) => (k === 4 && i % 3 === 0 ? null : f16[(i + k) % f16.length]))],
  [fl.field('halves', fl.list(fl.field('item', fl.float16()))), fl.list(fl.field('item', fl.uint16())),
    (i) => range(i % 4, (k) => (k === 1 ? null : f16[(i * k) % f16.length]))],
  [fl.field('rec', fl.struct([fl.field('h', fl.float16()), fl.field('key', fl.fixedSizeBinary(4))])),
    fl.struct([fl.field('h', fl.uint16()), fl.field('key', fl.fixedSizeBinary(4))]), (i) => ({ h: f16[(i * 5) % f16.length], key: i % 4 ? bytes(4) : null })],
];
const decCols = decFields.map(([f, , v], k) => range(m, (i) => (f.nullable && (i + k) % 5 === 0 ? null : v(i))));
write('decimals.parquet', decFields.map((x) => x[0]), decCols, { rowGroup: 8, storage: decFields.map((x) => x[1]) });
write('decimals_plain.parquet', decFields.map((x) => x[0]), decCols, { rowGroup: 16, storage: decFields.map((x) => x[1]), dictionary: false, v2: true, codec: 'LZ4_RAW' });

// The same kinds of Parquet columns as hyparquet-writer writes them,
// without ARROW:schema (so the Arrow types are arrow-rs's mapping of the
// Parquet ones): timestamps (logical and converted annotations), dates,
// times, decimals of every storage, FLOAT16, UUID, bare FIXED_LEN_BYTE_ARRAY,
// JSON, ENUM, BSON, GEOMETRY, GEOGRAPHY; with dictionary pages, and with DELTA_BINARY_PACKED,
// BYTE_STREAM_SPLIT, DELTA_BYTE_ARRAY and DELTA_LENGTH_BYTE_ARRAY.
const utf = (x) => new TextEncoder().encode(x);
const hyCols = [
  ['ts_ms_utc', { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } }, (i) => big(i, 1000n), 'DELTA_BINARY_PACKED'],
  ['ts_us_local', { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MICROS' } }, (i) => big(i, 1000001n), 'BYTE_STREAM_SPLIT'],
  ['ts_ns_utc', { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'NANOS' } }, (i) => big(i, 999999999n), 'DELTA_BINARY_PACKED'],
  ['ts_ms_conv', { type: 'INT64', converted_type: 'TIMESTAMP_MILLIS' }, (i) => big(i, 1n), 'PLAIN'],
  ['ts_us_conv', { type: 'INT64', converted_type: 'TIMESTAMP_MICROS' }, (i) => big(i, 3n), 'DELTA_BINARY_PACKED'],
  ['day', { type: 'INT32', converted_type: 'DATE' }, (i) => i * 97 - 1000, 'BYTE_STREAM_SPLIT'],
  ['t_ms', { type: 'INT32', converted_type: 'TIME_MILLIS' }, (i) => i * 3600017 % 86400000, 'DELTA_BINARY_PACKED'],
  ['t_us', { type: 'INT64', converted_type: 'TIME_MICROS' }, (i) => BigInt(i) * 3600000017n % 86400000000n, 'PLAIN'],
  ['t_ns', { type: 'INT64', logical_type: { type: 'TIME', isAdjustedToUTC: true, unit: 'NANOS' } }, (i) => BigInt(i) * 3600000000017n % 86400000000000n, 'BYTE_STREAM_SPLIT'],
  ['d_i32', { type: 'INT32', converted_type: 'DECIMAL', precision: 9, scale: 3 }, (i) => BigInt(i * 12345 - 99999), 'DELTA_BINARY_PACKED'],
  ['d_i64', { type: 'INT64', converted_type: 'DECIMAL', precision: 18, scale: 0 }, (i) => big(i, 123457n), 'BYTE_STREAM_SPLIT'],
  ['d_ba', { type: 'BYTE_ARRAY', converted_type: 'DECIMAL', precision: 30, scale: 5 }, (i) => (i % 2 ? -1n : 1n) * big(i, 10n ** 15n), 'DELTA_BYTE_ARRAY'],
  ['d_ba256', { type: 'BYTE_ARRAY', converted_type: 'DECIMAL', precision: 50, scale: 5 }, (i) => (i % 2 ? -1n : 1n) * (10n ** 48n + big(i, 1n)), 'DELTA_LENGTH_BYTE_ARRAY'],
  ['d_flba', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 9, converted_type: 'DECIMAL', precision: 20, scale: 2 }, (i) => big(i, 10n ** 7n), 'PLAIN'],
  ['d_flba256', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 20, logical_type: { type: 'DECIMAL', precision: 45, scale: 1 }, converted_type: 'DECIMAL', precision: 45, scale: 1 }, (i) => -(10n ** 44n) + big(i, 1n), 'PLAIN'],
  ['half', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 2, logical_type: { type: 'FLOAT16' } }, (i) => [1, -0, 0.5, 65504, -Infinity, 6e-8, 3.140625][i % 7], 'PLAIN'],
  ['uuid', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, logical_type: { type: 'UUID' } }, () => bytes(16), 'PLAIN'],
  ['raw3', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 3 }, () => bytes(3), 'PLAIN'],
  ['doc', { type: 'BYTE_ARRAY', converted_type: 'JSON' }, (i) => ({ i, s: 'é' }), 'DELTA_BYTE_ARRAY'],
  ['level', { type: 'BYTE_ARRAY', converted_type: 'ENUM' }, (i) => utf(['LOW', 'HIGH'][i % 2]), 'DELTA_LENGTH_BYTE_ARRAY'],
  ['bson', { type: 'BYTE_ARRAY', converted_type: 'BSON' }, (i) => bytes(i % 5), 'PLAIN'],
  ['shape', { type: 'BYTE_ARRAY', logical_type: { type: 'GEOMETRY' } }, (i) => ({ type: 'Point', coordinates: [i, -i / 2] }), 'DELTA_LENGTH_BYTE_ARRAY'],
  ['place', { type: 'BYTE_ARRAY', logical_type: { type: 'GEOGRAPHY' } }, (i) => ({ type: 'LineString', coordinates: [[i, 1], [2, i / 3]] }), 'PLAIN'],
];
for (const [name, encoded] of [['types_hyparquet.parquet', false], ['types_hyparquet_encodings.parquet', true]]) {
  writeFileSync(join(out, name), new Uint8Array(parquetWriteBuffer({
    columnData: hyCols.map(([col, , v, encoding], k) => ({
      name: col, data: range(m, (i) => ((i + k) % 4 === 0 ? null : v(i))), ...(encoded ? { encoding } : {}),
    })),
    schema: [{ name: 'root', num_children: hyCols.length }, ...hyCols.map(([col, el]) => ({ name: col, repetition_type: 'OPTIONAL', ...el }))],
    rowGroupSize: encoded ? 23 : 8,
  })));
  console.log(join(out, name));
}

// arrowSchema is ARROW:schema for fields: base64 of their IPC Schema
// message, as arrow-rs and Arrow C++ write it.
function arrowSchema(fields) {
  const schema = { version: fl.Version.V5, endianness: fl.Endianness.Little, fields, metadata: null };
  const stream = fl.tableToIPC(new fl.Table(schema, fields.map((f) => fl.columnFromValues([], f.type))), { format: 'stream' });
  return Buffer.from(stream.subarray(0, stream.length - 8)).toString('base64');
}

// writeHinted writes Parquet columns with hyparquet-writer and an
// ARROW:schema of its own (what pyarrow writes: second timestamps as
// milliseconds, Date64 as DATE days, time zones, categoricals over strings),
// where arrow-rs keeps the Arrow type or its own as its rules say.
function writeHinted(name, cols) {
  writeFileSync(join(out, name), new Uint8Array(parquetWriteBuffer({
    columnData: cols.map(([col, , , data]) => ({ name: col, data })),
    schema: [{ name: 'root', num_children: cols.length }, ...cols.flatMap(([, , els]) => els)],
    kvMetadata: [{ key: 'ARROW:schema', value: arrowSchema(cols.map(([, f]) => f)) }],
    rowGroupSize: 5,
  })));
  console.log(join(out, name));
}
const n9 = (f) => range(9, (i) => (i % 4 === 1 ? null : f(i)));
const leaf = (name, el) => [{ name, repetition_type: 'OPTIONAL', ...el }];
const tsMillisUTC = { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' } };
writeHinted('hinted.parquet', [
  ['ts_s_utc', fl.field('ts_s_utc', fl.timestamp(U.SECOND, 'UTC')), leaf('ts_s_utc', tsMillisUTC), n9((i) => BigInt(i * 86399 - 1000) * 1000n)],
  ['ts_ny', fl.field('ts_ny', fl.timestamp(U.MICROSECOND, 'America/New_York')),
    leaf('ts_ny', { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } }), n9((i) => big(i, 1000001n))],
  ['ts_plain', fl.field('ts_plain', fl.timestamp(U.MILLISECOND)), leaf('ts_plain', { type: 'INT64' }), n9((i) => big(i, 1n))],
  ['ts_i32', fl.field('ts_i32', fl.timestamp(U.SECOND, 'UTC')), leaf('ts_i32', { type: 'INT32' }), n9((i) => (i - 4) * 499999999)],
  ['d64', fl.field('d64', fl.dateMillisecond()), leaf('d64', { type: 'INT32', converted_type: 'DATE' }), n9((i) => i * 1000 - 4000)],
  ['t_s', fl.field('t_s', fl.time(U.SECOND)), leaf('t_s', { type: 'INT32' }), n9((i) => i * 3601)],
  ['dur', fl.field('dur', fl.duration(U.MILLISECOND)), leaf('dur', { type: 'INT64' }), n9((i) => big(i, 1n))],
  ['cat', fl.field('cat', fl.dictionary(fl.utf8(), fl.int8())), leaf('cat', { type: 'BYTE_ARRAY', converted_type: 'UTF8' }), n9((i) => ['a', 'b', 'c'][i % 3])],
  ['bin_over_str', fl.field('bin_over_str', fl.binary()), leaf('bin_over_str', { type: 'BYTE_ARRAY', converted_type: 'UTF8' }), n9((i) => `s${i}`)],
  ['str_over_bin', fl.field('str_over_bin', fl.largeUtf8()), leaf('str_over_bin', { type: 'BYTE_ARRAY' }), n9((i) => utf(`b${i}`))],
  ['dec256', fl.field('dec256', fl.decimal(20, 2, 256)), leaf('dec256', { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 9, converted_type: 'DECIMAL', precision: 20, scale: 2 }),
    n9((i) => big(i, 10n ** 8n))],
  ['lts', fl.field('lts', fl.list(fl.field('element', fl.timestamp(U.SECOND, 'UTC')))), [
    { name: 'lts', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'OPTIONAL', ...tsMillisUTC },
  ], n9((i) => range(i % 3, (k) => (k === 1 ? null : BigInt(k * 1000 + i))))],
]);

// Types the engine leaves to parquet-wasm: a map (arrow-rs's file), and
// (hyparquet-writer's) nanoseconds without a time zone under a millisecond
// ARROW:schema type, which arrow-rs reads with rules of its own.
write('declined.parquet', [
  fl.field('id', fl.int32()),
  fl.field('tags', fl.map(fl.field('key', fl.utf8(), false), fl.field('value', fl.int32()))),
], [range(5, (i) => i), range(5, (i) => (i === 2 ? null : [[`k${i}`, i], ['z', null]]))]);
writeHinted('declined_unit.parquet', [
  ['id', fl.field('id', fl.int32()), leaf('id', { type: 'INT32' }), n9((i) => i)],
  ['when', fl.field('when', fl.timestamp(U.MILLISECOND)), leaf('when', { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'NANOS' } }),
    n9((i) => big(i, 1000000n))],
]);
