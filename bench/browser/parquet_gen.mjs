// Writes the benchmark's Parquet file with parquet-wasm (arrow-rs's Parquet
// writer), run by parquet.go as
//
//   node --input-type=module -e <this file> <node_modules> <out> <row group rows> [<compression> [<dictionary> [<statistics> [<key-value JSON>]]]]
//
// Its standard input is a sequence of row groups, each an 8-byte
// little-endian length and an Arrow IPC stream (the schema and one record
// batch, the row group's rows) that the Go side builds; they go through
// transformParquetStream one at a time, so memory holds about one row group
// (the Arrow batch and its encoded pages), whatever the file's size.
//
// The file: a page index (page-level statistics), 1 MiB data pages, and by
// default no dictionary encoding (8-bit pixels gain nothing from it) and
// ZSTD (a uint8 is an INT32 in Parquet: ZSTD removes the three zero bytes
// of each, where SNAPPY keeps most of them; image data with noise gains
// little more); the query layout asks for SNAPPY and dictionaries (true).
// <statistics> is parquet-wasm's EnabledStatistics name: Page (the default)
// writes the page index; Chunk writes statistics per column chunk only (and
// arrow-rs still writes an offset index, which hf.go removes from the
// footer). <key-value JSON> is an object of strings added to the footer's
// key-value metadata (the Hugging Face features), beside ARROW:schema.
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';

const [nodeModules, out, rowGroupRows, codec = 'ZSTD', dictionary = 'false', statistics = 'Page', keyValue = '{}'] = process.argv.slice(1);
const pw = await import(pathToFileURL(join(nodeModules, 'parquet-wasm', 'node', 'parquet_wasm.js')).href);

// next returns the next length-prefixed IPC stream from stdin, or null.
const input = process.stdin[Symbol.asyncIterator]();
let pending = Buffer.alloc(0);
async function take(n) {
  while (pending.length < n) {
    const { value, done } = await input.next();
    if (done) {
      if (pending.length === 0) return null;
      throw new Error(`standard input ended inside a row group (${pending.length} of ${n} bytes)`);
    }
    pending = pending.length ? Buffer.concat([pending, value]) : value;
  }
  const head = pending.subarray(0, n);
  pending = pending.subarray(n);
  return head;
}
async function next() {
  const len = await take(8);
  if (len === null) return null;
  return take(Number(len.readBigUInt64LE(0)));
}

const batches = new ReadableStream({
  async pull(ctrl) {
    const ipc = await next();
    if (ipc === null) { ctrl.close(); return; }
    const table = pw.Table.fromIPCStream(ipc);
    for (const b of table.recordBatches()) ctrl.enqueue(b);
  },
}, { highWaterMark: 0 });

let builder = new pw.WriterPropertiesBuilder()
  .setMaxRowGroupSize(Number(rowGroupRows))
  .setCompression(pw.Compression[codec])
  .setDictionaryEnabled(dictionary === 'true')
  .setStatisticsEnabled(pw.EnabledStatistics[statistics])
  .setDataPageSizeLimit(1 << 20);
const kv = Object.entries(JSON.parse(keyValue));
if (kv.length) builder = builder.setKeyValueMetadata(new Map(kv));
const props = builder.build();
const bytes = await pw.transformParquetStream(batches, props);
await pipeline(Readable.fromWeb(bytes), createWriteStream(out));
