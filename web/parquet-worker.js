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
import { parquetMetadata } from "./parquet/hyparquet/metadata.js";

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
  const size = blob ? blob.size : msg.size;
  const seen = []; // what opening read: the footer is among it
  const read = blob ? (start, end) => blob.slice(start, end).arrayBuffer() : pageRead;
  file = ParquetFile.fromFile(fileBytes(size, async (start, end) => {
    const buf = await read(start, end);
    seen.push({ start, buf });
    return buf;
  }));
  const pf = await file;
  const meta = footerMeta(pf);
  try {
    addStats(meta, await footerBytes(size, seen, read));
  } catch {
    // No statistics: every row group is read by a filter.
  }
  const schema = pf.schema().intoIPCStream();
  return [{ id: msg.id, meta, schema }, [schema.buffer]];
}

// footerBytes returns the end of the file from its footer (FileMetaData,
// its length and "PAR1"), from what opening read when it holds it, else
// read again.
async function footerBytes(size, seen, read) {
  const at = async (start, end) => {
    for (const p of seen) {
      if (p.start <= start && end <= p.start + p.buf.byteLength) {
        return new Uint8Array(p.buf, start - p.start, end - start);
      }
    }
    return new Uint8Array(await read(start, end));
  };
  if (size < 12) throw new Error("too short");
  const tail = await at(size - 8, size);
  const len = new DataView(tail.buffer, tail.byteOffset, 8).getUint32(0, true);
  if (len + 8 > size - 4) throw new Error("footer length out of range");
  const footer = await at(size - 8 - len, size - 8);
  const out = new Uint8Array(len + 8);
  out.set(footer, 0);
  out.set(tail, len);
  return out;
}

// Statistics as the file stores them, for the page to check against the
// columns' Arrow types: integers as decimal strings with, for dates and
// timestamps, their Parquet unit; bytes left raw, decoded below.
const rawParsers = {
  timestampFromMilliseconds: (v) => ({ int: v, unit: "ms" }),
  timestampFromMicroseconds: (v) => ({ int: v, unit: "us" }),
  timestampFromNanoseconds: (v) => ({ int: v, unit: "ns" }),
  dateFromDays: (v) => ({ int: v, unit: "d" }),
  stringFromBytes: (b) => b,
};
const utf8 = new TextDecoder("utf-8", { fatal: true });

// addStats adds to each row group of meta its column chunks' statistics
// (min_value, max_value, null_count; the deprecated min and max only for
// non-byte-array columns, whose order they got right), read with
// hyparquet's footer parser: stats[k] for leaf column k is null or
// {kind, min, max, nulls, unit} (strings; kind int, uint, float, string or
// bool).
function addStats(meta, footer) {
  const md = parquetMetadata(footer, { parsers: rawParsers, geoparquet: false });
  // The leaf schema elements, in column chunk order (depth first).
  const leaves = [];
  const walk = (i) => {
    const el = md.schema[i];
    if (!el) throw new Error("schema ends early");
    if (!el.num_children) {
      leaves.push(el);
      return i + 1;
    }
    let next = i + 1;
    for (let c = 0; c < el.num_children; c++) next = walk(next);
    return next;
  };
  let i = 1;
  while (i < md.schema.length) i = walk(i);
  if (md.row_groups.length !== meta.rowGroups.length) return;
  md.row_groups.forEach((rg, g) => {
    if (rg.columns.length !== leaves.length) return;
    meta.rowGroups[g].stats = rg.columns.map((c, k) => chunkStats(c.meta_data?.statistics, leaves[k]));
  });
}

function chunkStats(st, el) {
  if (!st) return null;
  const bytes = el.type === "BYTE_ARRAY" || el.type === "FIXED_LEN_BYTE_ARRAY";
  const min = st.min_value !== undefined || bytes ? st.min_value : st.min;
  const max = st.max_value !== undefined || bytes ? st.max_value : st.max;
  const out = { nulls: st.null_count === undefined ? null : String(st.null_count), kind: null, min: null, max: null, unit: "" };
  const lt = el.logical_type?.type;
  const unsigned = el.converted_type?.startsWith("UINT_") || (lt === "INTEGER" && !el.logical_type.isSigned);
  // Integers of a date, time or timestamp type without the annotation
  // hyparquet converts: their unit from the logical type (times: none).
  const units = { MILLIS: "ms", MICROS: "us", NANOS: "ns" };
  const intUnit = lt === "DATE" ? "d" : lt === "TIMESTAMP" ? units[el.logical_type.unit] ?? "ms" : "";
  const timeOfDay = lt === "TIME" || el.converted_type?.startsWith("TIME_");
  const value = (v) => {
    if (v === undefined || v === null || timeOfDay) return null;
    if (typeof v === "boolean") return ["bool", String(v), ""];
    if (typeof v === "bigint") return [unsigned ? "uint" : "int", String(v), intUnit];
    if (typeof v === "object" && typeof v.int !== "undefined") return ["int", String(v.int), v.unit];
    if (typeof v === "number") {
      if (el.type === "FLOAT" || el.type === "DOUBLE" || lt === "FLOAT16") return ["float", String(v), ""];
      if (el.type === "INT32" && el.converted_type !== "DECIMAL" && lt !== "DECIMAL") return [unsigned ? "uint" : "int", String(v), intUnit];
      return null;
    }
    const isText = el.converted_type === "UTF8" || lt === "STRING" || lt === "ENUM";
    if (v instanceof Uint8Array && el.type === "BYTE_ARRAY" && isText) {
      try {
        return ["string", utf8.decode(v), ""];
      } catch {
        return null;
      }
    }
    return null;
  };
  const lo = value(min);
  const hi = value(max);
  if (lo && hi && lo[0] === hi[0] && lo[2] === hi[2]) {
    [out.kind, out.min, out.unit] = lo;
    out.max = hi[1];
  }
  return out;
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
