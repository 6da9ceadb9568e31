// tensorview's Parquet reader: a module web worker around parquet-wasm
// (arrow-rs's Parquet reader compiled to WebAssembly, vendored into
// web/parquet/ by `make vendor`). The page (app/browser/parquet*.go) starts it
// the first time a Parquet file is opened, so the first page load never
// fetches the 5 MB reader, and terminates it when the file closes, when a
// read traps or hangs (a trapped wasm instance is unusable: its promises may
// never settle), and when its wasm memory, which never shrinks, has grown
// past the page's limit.
//
// One worker reads one file. Messages from the page, each with an id that
// the answer repeats:
//
//   {op: "open", id, blob, keepBytes}
//                                 open a Blob (a dropped or picked File)
//   {op: "open", id, size, keepBytes}
//                                 open a file of size bytes whose bytes the
//                                 page sends on request (a file by URL);
//                                 keepBytes: how many bytes of the ranges
//                                 last read to keep for the next reads
//   {op: "read", id, rowGroup, offset, limit, columns}
//                                 rows [offset, offset+limit) of row group
//                                 rowGroup (0-based), of the top-level
//                                 columns named (null: all)
//   {op: "range", rid, bytes}     the bytes asked for by {op: "range"}
//   {op: "range", rid, error}     or why they cannot be read
//
// Answers:
//
//   {id, meta, schema}            to open: the footer (see footerMeta) and
//                                 the Arrow schema as a schema-only IPC
//                                 stream (Uint8Array, transferred)
//   {id, ipc, memory}             to read: an Arrow IPC stream (Uint8Array,
//                                 transferred) and the wasm memory in bytes
//   {id, error, trapped}          why it failed; trapped: the wasm instance
//                                 trapped (RuntimeError) and is unusable
//
// Requests are answered one at a time, in the order they came.
//   {op: "range", rid, start, end}
//                                 asks the page for bytes [start, end)
//
// Nothing from the file is evaluated: names and metadata travel as strings.

import init, { ParquetFile, wasmMemory } from "./parquet/parquet_wasm.js";

// The wasm, compiled once per worker.
const ready = init();

// The file, once opened (a promise of a ParquetFile).
let file = null;

// Byte ranges asked of the page, by request id.
const ranges = new Map();
let nextRange = 0;

// Codec names by parquet-wasm's Compression enum (its order, not the
// Parquet specification's), spelled as the specification spells them.
const codecs = ["UNCOMPRESSED", "SNAPPY", "GZIP", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW", "LZO"];

// A read of a window of a row group's rows fetches the same column chunks
// as the window before it when the file has no page index: the last byte
// ranges read are kept (up to keepBytes, set by open) and served again.
let keepBytes = 0;
const kept = new Map(); // "start-end" -> ArrayBuffer, oldest first
let keptBytes = 0;

function keep(key, buf) {
  if (buf.byteLength > keepBytes) return;
  kept.set(key, buf);
  keptBytes += buf.byteLength;
  for (const [k, b] of kept) {
    if (keptBytes <= keepBytes) break;
    kept.delete(k);
    keptBytes -= b.byteLength;
  }
}

// fileBytes is a Blob-like view of the file for ParquetFile.fromFile, which
// needs only size, slice(start, end) and arrayBuffer(): its bytes come from
// read(start, end), a promise of an ArrayBuffer, or from the ranges kept.
function fileBytes(size, read) {
  return {
    size,
    slice(start = 0, end = size) {
      start = Math.max(0, Math.min(size, start));
      end = Math.max(start, Math.min(size, end));
      return {
        size: end - start,
        arrayBuffer: async () => {
          const key = start + "-" + end;
          const hit = kept.get(key);
          if (hit) return hit;
          const buf = await read(start, end);
          keep(key, buf);
          return buf;
        },
      };
    },
  };
}

// pageRead asks the page for bytes [start, end) of a file by URL.
function pageRead(start, end) {
  return new Promise((resolve, reject) => {
    const rid = nextRange++;
    ranges.set(rid, { resolve, reject });
    postMessage({ op: "range", rid, start, end });
  });
}

// footerMeta reads what the page shows of the footer (Parquet
// FileMetaData): sizes in bytes, counts as numbers.
function footerMeta(pf) {
  const md = pf.metadata();
  const fm = md.fileMetadata();
  const meta = {
    createdBy: fm.createdBy() ?? "",
    version: fm.version(),
    keyValue: [],
    rowGroups: [],
    columns: [],
  };
  for (const [k, v] of fm.keyValueMetadata()) {
    meta.keyValue.push([String(k), v == null ? "" : String(v)]);
  }
  fm.free();
  const n = md.numRowGroups();
  for (let i = 0; i < n; i++) {
    const rg = md.rowGroup(i);
    // chunks: each leaf column's compressed bytes in this row group.
    const g = { rows: rg.numRows(), compressed: rg.compressedSize(), uncompressed: rg.totalByteSize(), chunks: [] };
    const cols = rg.columns();
    cols.forEach((c, k) => {
      if (i === 0) meta.columns.push({ path: c.columnPath().map(String), codecs: [] });
      g.chunks.push(c.compressedSize());
      const codec = codecs[c.compression()] ?? `codec ${c.compression()}`;
      const col = meta.columns[k];
      if (col && !col.codecs.includes(codec)) col.codecs.push(codec);
      c.free();
    });
    meta.rowGroups.push(g);
    rg.free();
  }
  md.free();
  return meta;
}

async function open(msg) {
  await ready;
  keepBytes = msg.keepBytes ?? 0;
  const blob = msg.blob;
  file = ParquetFile.fromFile(blob
    ? fileBytes(blob.size, (start, end) => blob.slice(start, end).arrayBuffer())
    : fileBytes(msg.size, pageRead));
  const pf = await file;
  const meta = footerMeta(pf);
  const schema = pf.schema().intoIPCStream();
  return [{ id: msg.id, meta, schema }, [schema.buffer]];
}

async function read(msg) {
  if (!file) throw new Error("no file is open");
  const pf = await file;
  const opts = { rowGroups: [msg.rowGroup], offset: msg.offset, limit: msg.limit, batchSize: Math.max(1, Math.min(msg.limit, 8192)) };
  if (msg.columns) opts.columns = msg.columns;
  const table = await pf.read(opts);
  const ipc = table.intoIPCStream();
  return [{ id: msg.id, ipc, memory: wasmMemory().buffer.byteLength }, [ipc.buffer]];
}

// Requests run one at a time, in order: when the wasm traps, the request
// under way (current) is the one that trapped. A trap surfaces as a
// rejection or, from inside wasm-bindgen's task queue, as an uncaught
// RuntimeError whose request then never settles.
let queue = Promise.resolve();
let current = null;

function trapped(err) {
  if (current !== null) {
    postMessage({ id: current, error: String(err?.message ?? err), trapped: true });
    current = null;
  }
}

onmessage = (e) => {
  const msg = e.data;
  if (msg.op === "range") {
    const r = ranges.get(msg.rid);
    ranges.delete(msg.rid);
    if (r && msg.error != null) r.reject(new Error(msg.error));
    else if (r) r.resolve(msg.bytes);
    return;
  }
  queue = queue.then(async () => {
    current = msg.id;
    try {
      const [answer, transfer] = await (msg.op === "open" ? open(msg) : read(msg));
      postMessage(answer, transfer);
    } catch (err) {
      postMessage({ id: msg.id, error: String(err?.message ?? err), trapped: err instanceof WebAssembly.RuntimeError });
    }
    current = null;
  });
};

// An uncaught trap: the request under way failed, and the page, told it
// trapped, replaces this worker. preventDefault keeps it from the page's
// Worker error event, which is left for failures to load the reader.
addEventListener("error", (e) => {
  if (e.error instanceof WebAssembly.RuntimeError || current !== null) {
    trapped(e.error ?? e.message);
    e.preventDefault();
  }
});
addEventListener("unhandledrejection", (e) => {
  trapped(e.reason);
  e.preventDefault();
});
