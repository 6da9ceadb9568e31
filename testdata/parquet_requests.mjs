// The byte ranges tensorview's Parquet worker (web/parquet-worker.js, run
// by parquet_worker_node.mjs) asks the page for, for a file by URL: it
// writes three files into OUT_DIR and checks, each check printed as JSON
// {name, ok, detail}; the exit status is 1 when one fails.
//
//   hf_big.parquet     hyparquet-writer: 400 rows of Hugging Face images
//                      (3 KB each) in 100-row row groups, 32 KiB pages, no
//                      page index
//   many_groups.parquet  4000 one-row row groups: a footer larger than the
//                      worker's first read of the tail
//   paged.parquet      parquet-wasm: 40 rows of 64×64×3 uint8 tensors,
//                      ZSTD, 8 KiB pages, a page index
//
// The checks: opening reads the footer with one read of the file's tail
// when it fits, two when it does not; a read asks only for the column
// chunks of the columns named; a second window of the same row group is
// served from the bytes kept; without a page index, a window of a big
// chunk's first rows reads its first pages only, and the next window the
// pages after them (with parquet-wasm's values); with a page index, a window of rows asks
// only for the pages that hold them (and the chunk's offset index).
//
// Usage: node parquet_requests.mjs WEB_DIR OUT_DIR

import * as fl from '@uwdata/flechette';
import * as pw from 'parquet-wasm';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parquetMetadata, readOffsetIndex } from 'hyparquet';
import { tableFromIPC } from 'apache-arrow';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWorker, seeded } from './parquet_worker_node.mjs';
import { hfParquet } from './hf.mjs';

const [web, out] = process.argv.slice(2);
const TAIL = 64 << 10; // web/parquet-worker.js's TAIL
const { rand, range, bytes } = seeded();

// rowsOf decodes an Arrow IPC stream (apache-arrow) into plain rows.
const rowsOf = (ipc) => tableFromIPC(ipc).toArray().map((r) => JSON.stringify(r.toJSON(), (_, v) => (typeof v === 'bigint' ? String(v) : v instanceof Uint8Array ? Array.from(v) : v)));

const results = [];
const check = (name, ok, detail) => results.push({ name, ok: !!ok, detail });
const ab = (u8) => u8.buffer.slice(u8.byteOffset, u8.byteOffset + u8.byteLength);
const within = (r, lo, hi) => lo <= r[0] && r[1] <= hi;

// hf_big.parquet
const hfRows = 400;
const hf = new Uint8Array(parquetWriteBuffer({
  ...hfParquet({
    image: range(hfRows, (i) => ({ bytes: bytes(3000), path: `img_${i}.jpg` })),
    label: range(hfRows, (i) => BigInt(i % 10)),
    caption: range(hfRows, (i) => `caption ${i}`),
  }),
  rowGroupSize: 100,
  pageSize: 32 << 10,
}));
writeFileSync(join(out, 'hf_big.parquet'), hf);
{
  const md = parquetMetadata(ab(hf));
  const w = parquetWorker(web);
  try {
    const o = await w.request({ op: 'open', data: hf, keepBytes: 8 << 20 });
    check('hf_big: opened by hyparquet', o.engine === 'hyparquet' && !o.error, o.error ?? o.engine);
    check("hf_big: the footer in one read of the tail", JSON.stringify(w.ranges) === JSON.stringify([[hf.length - TAIL, hf.length]]), w.ranges.slice());
    const label = md.row_groups[2].columns.find((c) => c.meta_data.path_in_schema[0] === 'label').meta_data;
    const lo = Number(label.dictionary_page_offset ?? label.data_page_offset);
    const hi = lo + Number(label.total_compressed_size);
    let n = w.ranges.length;
    const r = await w.request({ op: 'read', rowGroup: 2, offset: 0, limit: 5, columns: ['label'] });
    const asked = w.ranges.slice(n);
    check('hf_big: a read of one column asks only for its column chunk', !r.error && asked.length > 0 && asked.every((x) => within(x, lo, hi)) || asked.every((x) => within(x, hf.length - TAIL, hf.length)), { asked, chunk: [lo, hi], error: r.error });
    n = w.ranges.length;
    const r2 = await w.request({ op: 'read', rowGroup: 2, offset: 5, limit: 5, columns: ['label'] });
    check('hf_big: the next window of the row group reads nothing again', !r2.error && w.ranges.length === n, { asked: w.ranges.slice(n), error: r2.error });
    n = w.ranges.length;
    const r3 = await w.request({ op: 'read', rowGroup: 0, offset: 0, limit: 2, columns: ['image'] });
    const img = md.row_groups[0].columns.filter((c) => c.meta_data.path_in_schema[0] === 'image').map((c) => c.meta_data);
    const ilo = Math.min(...img.map((m) => Number(m.dictionary_page_offset ?? m.data_page_offset)));
    const ihi = Math.max(...img.map((m) => Number(m.dictionary_page_offset ?? m.data_page_offset) + Number(m.total_compressed_size)));
    const asked3 = w.ranges.slice(n);
    check('hf_big: a read of the image column asks only for its chunks', !r3.error && asked3.length > 0 && asked3.every((x) => within(x, ilo, ihi)), { asked: asked3, chunks: [ilo, ihi], error: r3.error });
    // Rows 0..4, then 5..39, of row group 1's images: the first pages of
    // the chunk, then only the rest; the values parquet-wasm's.
    const img1 = md.row_groups[1].columns.find((c) => c.meta_data.path_in_schema.join('.') === 'image.bytes').meta_data;
    const b0 = Number(img1.dictionary_page_offset ?? img1.data_page_offset);
    const b1 = b0 + Number(img1.total_compressed_size);
    const pw = parquetWorker(web);
    try {
      await pw.request({ op: 'open', data: hf, keepBytes: 0, engine: 'parquet-wasm' });
      let prev = 0;
      for (const [offset, limit] of [[0, 5], [5, 35]]) {
        n = w.ranges.length;
        const got = await w.request({ op: 'read', rowGroup: 1, offset, limit, columns: ['image'] });
        const want = await pw.request({ op: 'read', rowGroup: 1, offset, limit, columns: ['image'] });
        const asked = w.ranges.slice(n).filter((x) => x[0] < b1 && x[1] > b0);
        const read = asked.reduce((t, x) => t + x[1] - x[0], 0);
        const same = !got.error && !want.error && JSON.stringify(rowsOf(got.ipc)) === JSON.stringify(rowsOf(want.ipc));
        check(`hf_big: rows ${offset}..${offset + limit} of the images read only the pages that hold them, once`,
          same && asked.length > 0 && asked.every((x) => x[0] >= prev) && read <= Math.max(64 << 10, (b1 - b0) * (offset + limit + 15) / 100),
          { asked, chunk: [b0, b1], read, same, error: got.error ?? want.error });
        prev = Math.max(prev, ...asked.map((x) => x[1]));
      }
    } finally {
      await pw.close();
    }
  } finally {
    await w.close();
  }
}

// many_groups.parquet
const mgRows = 4000;
const mg = new Uint8Array(parquetWriteBuffer({
  columnData: [
    { name: 'id', data: range(mgRows, (i) => BigInt(i)), type: 'INT64' },
    { name: 'x', data: range(mgRows, (i) => i / 2), type: 'DOUBLE' },
    { name: 'name', data: range(mgRows, (i) => `n${i}`), type: 'STRING' },
  ],
  rowGroupSize: 1,
}));
writeFileSync(join(out, 'many_groups.parquet'), mg);
{
  const len = new DataView(ab(mg)).getUint32(mg.length - 8, true);
  const w = parquetWorker(web);
  try {
    const o = await w.request({ op: 'open', data: mg, keepBytes: 8 << 20 });
    const want = [[mg.length - TAIL, mg.length], [mg.length - 8 - len, mg.length - TAIL]];
    check('many_groups: a footer larger than the tail in two reads', !o.error && len + 8 > TAIL && JSON.stringify(w.ranges) === JSON.stringify(want), { ranges: w.ranges, want, footer: len, error: o.error });
    check('many_groups: its row groups', o.meta?.rowGroups.length === mgRows, o.meta?.rowGroups.length);
  } finally {
    await w.close();
  }
}

// paged.parquet
const pgRows = 40;
let pgData = null; // its bytes, for the early reads' checks
const shape = [64, 64, 3];
const per = shape[0] * shape[1] * shape[2];
{
  const fields = [
    fl.field('id', fl.int64(), false),
    fl.field('image', fl.fixedSizeList(fl.field('item', fl.uint8()), per), true,
      new Map([['ARROW:extension:name', 'arrow.fixed_shape_tensor'], ['ARROW:extension:metadata', JSON.stringify({ shape })]])),
  ];
  const cols = [fl.columnFromValues(range(pgRows, (i) => BigInt(i)), fields[0].type), fl.columnFromValues(range(pgRows, () => bytes(per)), fields[1].type)];
  const ipc = fl.tableToIPC(new fl.Table({ version: fl.Version.V5, endianness: fl.Endianness.Little, fields, metadata: null }, cols), { format: 'stream' });
  const props = new pw.WriterPropertiesBuilder().setMaxRowGroupSize(pgRows).setCompression(pw.Compression.ZSTD)
    .setDictionaryEnabled(false).setStatisticsEnabled(pw.EnabledStatistics.Page).setDataPageSizeLimit(8 << 10).setWriteBatchSize(per).build();
  const pg = pw.writeParquet(pw.Table.fromIPCStream(ipc), props);
  pgData = pg;
  writeFileSync(join(out, 'paged.parquet'), pg);
  const md = parquetMetadata(ab(pg));
  const chunk = md.row_groups[0].columns.find((c) => c.meta_data.path_in_schema[0] === 'image');
  const oi = [Number(chunk.offset_index_offset), Number(chunk.offset_index_offset) + chunk.offset_index_length];
  const pages = readOffsetIndex({ view: new DataView(ab(pg), oi[0], oi[1] - oi[0]), offset: 0 }).page_locations;
  const [first, end] = [20, 22];
  const hold = pages.filter((p, i) => Number(p.first_row_index) < end && (i + 1 === pages.length || Number(pages[i + 1].first_row_index) > first));
  const w = parquetWorker(web);
  try {
    const o = await w.request({ op: 'open', data: pg, keepBytes: 0 });
    const n = w.ranges.length;
    const r = await w.request({ op: 'read', rowGroup: 0, offset: first, limit: end - first, columns: ['image'] });
    const asked = w.ranges.slice(n);
    const inPage = (x) => hold.some((p) => within(x, Number(p.offset), Number(p.offset) + p.compressed_page_size))
      || within(x, Number(hold[0].offset), Number(hold.at(-1).offset) + hold.at(-1).compressed_page_size);
    const okRanges = asked.every((x) => inPage(x) || within(x, oi[0], oi[1]));
    const read = asked.reduce((s, x) => s + x[1] - x[0], 0);
    const chunkBytes = Number(chunk.meta_data.total_compressed_size);
    check('paged: the file has many pages', pages.length >= 20, pages.length);
    check('paged: a window reads only the pages that hold its rows', !o.error && !r.error && r.engine === 'hyparquet' && asked.length > 0 && okRanges && read < chunkBytes / 4,
      { asked, pages: hold.map((p) => [Number(p.offset), Number(p.offset) + p.compressed_page_size]), read, chunkBytes, error: o.error ?? r.error });
  } finally {
    await w.close();
  }
}

// Early reads (web/boot.js's worker while the app starts): the footer and
// the pages of rows 0-7 of row group 0, which open and the first read
// (here of rows 0-15: a window larger than what was read early) take
// instead of asking for them again; the rows are those a worker without
// the early read gives.
for (const [name, data] of [['hf_big', hf], ['paged', pgData]]) {
  const w = parquetWorker(web);
  const plain = parquetWorker(web);
  try {
    const e = await w.early(data);
    const early = w.ranges.slice();
    const o = await w.request({ op: 'open', data, keepBytes: 8 << 20 });
    const opened = w.ranges.length - early.length;
    const r = await w.request({ op: 'read', rowGroup: 0, offset: 0, limit: 16, columns: null });
    const later = w.ranges.slice(early.length);
    const overlap = later.filter((x) => early.some((y) => x[0] < y[1] && y[0] < x[1]));
    await plain.request({ op: 'open', data, keepBytes: 8 << 20 });
    const want = await plain.request({ op: 'read', rowGroup: 0, offset: 0, limit: 16, columns: null });
    check(`${name}: the early read reads the footer and first pages`, !e.error && early.length >= 1, { e, early });
    check(`${name}: open and the first read ask for nothing read early`, !o.error && !r.error && opened === 0 && overlap.length === 0, { early, later, overlap, error: o.error ?? r.error });
    check(`${name}: the first read's rows after an early read`, !r.error && JSON.stringify(rowsOf(r.ipc)) === JSON.stringify(rowsOf(want.ipc)), r.error);
  } finally {
    await w.close();
    await plain.close();
  }
}

process.stdout.write(JSON.stringify(results, null, 1));
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
