// tensorview's Parquet engine: npm's hyparquet (pure JavaScript) reads the
// pages, and this module bridges what it decodes to Arrow IPC streams with
// @uwdata/flechette, in the Arrow schema arrow-rs (parquet-wasm, the
// fallback engine) reads the same file as: the file's ARROW:schema when it
// has one (extension types and other field metadata kept), else Parquet's
// types mapped the way arrow-rs maps them. web/parquet-worker.js
// runs it; testdata/parquet_conformance.mjs checks it against parquet-wasm
// on every Parquet file of the test corpus, value by value.
//
// What it reads (anything else: decline gives the reason and the worker
// opens the file with parquet-wasm instead):
//
//   Arrow types   Bool, Int8/16/32/64, UInt8/16/32/64, Float16/32/64, Utf8,
//                 LargeUtf8, Binary, LargeBinary, Timestamp (every unit,
//                 with or without a time zone), Date32, Date64, Time32,
//                 Time64, Duration, Decimal128, Decimal256, FixedSizeBinary,
//                 Dictionary (of strings, binaries, integers or
//                 decimals, indices of up to 32 bits), and
//                 List, LargeList, FixedSizeList and Struct of them;
//                 extension types over those (their field metadata
//                 travels as it is). The types are arrow-rs's (parquet-rs
//                 59): Parquet's mapped as it maps them, ARROW:schema's
//                 where its rules take them (apply_hint: a second
//                 timestamp stored as milliseconds stays milliseconds)
//   Parquet       BOOLEAN, INT32, INT64, FLOAT, DOUBLE, BYTE_ARRAY and
//                 FIXED_LEN_BYTE_ARRAY leaves (integer, string, DATE, TIME,
//                 TIMESTAMP, DECIMAL, FLOAT16, UUID, JSON, ENUM, BSON,
//                 GEOMETRY and GEOGRAPHY annotations, or none: the last
//                 two as their WKB bytes), LIST and plain groups
//   codecs        UNCOMPRESSED, SNAPPY (hyparquet's), GZIP, BROTLI, LZ4,
//                 LZ4_RAW (hyparquet-compressors), ZSTD (fzstd): each
//                 loaded only when the file uses it (bundled by `make
//                 vendor` with esbuild into web/parquet/engine/, the
//                 decompressors as chunks of their own)
//
// Declined, for parquet-wasm: Parquet INT96 and INTERVAL, the variant
// annotation, MAP; Arrow maps, unions, views, intervals,
// Null, Decimal32/64, dictionaries of other values or with 64-bit indices;
// nanosecond timestamps without a time zone under a coarser ARROW:schema
// unit (arrow-rs converts those its own way); column chunks in other
// files. A read
// hyparquet fails on (a corrupt page, an encoding or a codec it lacks
// such as LZO, which the page never asks for) goes to parquet-wasm too (the
// worker does that), so its errors are the ones users saw before.

import { parquetMetadata, parquetSchema } from "hyparquet-src/metadata.js";
import { prepareParquetRead } from "hyparquet-src/scan.js";
import { prefetchAsyncBuffer } from "hyparquet-src/plan.js";
import { assembleAsync, readRowGroup } from "hyparquet-src/rowgroup.js";
import { parquetHeader } from "hyparquet-src/column.js";
import { decompressPage } from "hyparquet-src/datapage.js";
import { readRleBitPackedHybrid } from "hyparquet-src/encoding.js";
import { readPlain } from "hyparquet-src/plain.js";
import { readOffsetIndex } from "hyparquet-src/indexes.js";
import { flatten } from "hyparquet-src/utils.js";
import * as fl from "@uwdata/flechette";

export { parquetMetadata };

const T = fl.Type;

// Values are decoded raw: byte arrays as Uint8Array (text decoded below,
// for the Arrow type asked), integers as they are stored (reads also leave
// the leaves' annotations out: see open).
const rawParsers = {
  stringFromBytes: (b) => b,
  jsonFromBytes: (b) => b,
  uuidFromBytes: (b) => b,
  geometryFromBytes: (b) => b,
  geographyFromBytes: (b) => b,
  timestampFromMilliseconds: (v) => v,
  timestampFromMicroseconds: (v) => v,
  timestampFromNanoseconds: (v) => v,
  dateFromDays: (v) => v,
};

// Decompressors by Parquet codec name, loaded when a file uses them;
// SNAPPY and UNCOMPRESSED are hyparquet's own.
const codecLoaders = {
  GZIP: async () => {
    const m = await import("hyparquet-compressors-src/gzip.js");
    return (input, length) => m.gunzip(input, new Uint8Array(length));
  },
  BROTLI: async () => (await import("hyparquet-compressors-src/brotli.js")).decompressBrotli,
  LZ4: async () => (await import("hyparquet-compressors-src/lz4.js")).decompressLz4,
  LZ4_RAW: async () => (await import("hyparquet-compressors-src/lz4.js")).decompressLz4Raw,
  ZSTD: async () => {
    const m = await import("fzstd");
    return (input) => m.decompress(input);
  },
};
const builtinCodecs = new Set(["UNCOMPRESSED", "SNAPPY"]);

const utf8 = new TextDecoder("utf-8", { fatal: true });

// decodeArrowSchema reads ARROW:schema (base64 of an IPC Schema message,
// with or without its continuation marker) as a flechette schema.
function decodeArrowSchema(b64) {
  const bin = atob(b64);
  let bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  if (bytes.length >= 4 && new DataView(bytes.buffer).getInt32(0, true) !== -1) {
    // Pre-0.15 framing: a length, then the message; add the marker.
    const framed = new Uint8Array(bytes.length + 4);
    framed.set([0xff, 0xff, 0xff, 0xff]);
    framed.set(bytes, 4);
    bytes = framed;
  }
  const stream = new Uint8Array(bytes.length + 8);
  stream.set(bytes);
  stream.set([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0], bytes.length);
  return fl.tableFromIPC(stream).schema;
}

// Parquet schema nodes (hyparquet's SchemaTree) and their kinds.
const ann = (el) => el.logical_type?.type ?? el.converted_type;
function isList(node) {
  const el = node.element;
  if (el.converted_type !== "LIST" && el.logical_type?.type !== "LIST") return false;
  if (node.children.length !== 1) return false;
  const rep = node.children[0];
  return rep.element.repetition_type === "REPEATED";
}
// listItem is the node of a LIST's items: the repeated group's one child
// (three levels), or the repeated node itself (two levels).
function listItem(node) {
  const rep = node.children[0];
  if (rep.children.length === 1) {
    // A repeated group of one field named array or <list>_tuple is itself
    // the item (the specification's backward-compatibility rules).
    const n = rep.element.name;
    if (n === "array" || n === node.element.name + "_tuple") return rep;
    return rep.children[0];
  }
  return rep;
}

const TU = fl.TimeUnit;
const parquetUnits = { MILLIS: TU.MILLISECOND, MICROS: TU.MICROSECOND, NANOS: TU.NANOSECOND };
const intConverted = { INT_8: [8, true], INT_16: [16, true], INT_32: [32, true], INT_64: [64, true],
  UINT_8: [8, false], UINT_16: [16, false], UINT_32: [32, false], UINT_64: [64, false] };

// parquetType returns the Arrow type arrow-rs (parquet-rs 59, its
// from_parquet) reads Parquet leaf el as when ARROW:schema says nothing
// else, or why this engine does not read it (a string): INT96, INTERVAL,
// and what arrow-rs refuses too.
function parquetType(el) {
  const lt = el.logical_type;
  const l = lt?.type;
  const ct = el.converted_type;
  const what = `Parquet ${el.type} ${l ?? ct ?? ""}`.trim();
  const decimal = (bits) => {
    const [p, s] = l === "DECIMAL" ? [lt.precision, lt.scale] : [el.precision, el.scale];
    if (!(p > 0) || !(s >= 0)) return `${what} with precision ${p} and scale ${s}`;
    return fl.decimal(p, s, bits);
  };
  switch (el.type) {
    case "BOOLEAN":
      return fl.bool();
    case "FLOAT":
      return fl.float32();
    case "DOUBLE":
      return fl.float64();
    case "INT32":
      if (l === "INTEGER") return [8, 16, 32].includes(lt.bitWidth) ? fl.int(lt.bitWidth, lt.isSigned) : what;
      if (l === "DECIMAL") return decimal(128);
      if (l === "DATE") return fl.dateDay();
      if (l === "TIME") return lt.unit === "MILLIS" ? fl.time(TU.MILLISECOND) : what;
      if (l) return what;
      if (!ct) return fl.int32();
      if (intConverted[ct] && intConverted[ct][0] < 64) return fl.int(...intConverted[ct]);
      if (ct === "DATE") return fl.dateDay();
      if (ct === "TIME_MILLIS") return fl.time(TU.MILLISECOND);
      if (ct === "DECIMAL") return decimal(128);
      return what;
    case "INT64":
      if (l === "INTEGER") return lt.bitWidth === 64 ? fl.int(64, lt.isSigned) : what;
      if (l === "TIME") return lt.unit === "MILLIS" ? what : fl.time(parquetUnits[lt.unit]);
      if (l === "TIMESTAMP") return fl.timestamp(parquetUnits[lt.unit], lt.isAdjustedToUTC ? "UTC" : null);
      if (l === "DECIMAL") return decimal(128);
      if (l) return what;
      if (!ct || ct === "INT_64") return fl.int64();
      if (ct === "UINT_64") return fl.uint64();
      if (ct === "TIME_MICROS") return fl.time(TU.MICROSECOND);
      if (ct === "TIMESTAMP_MILLIS") return fl.timestamp(TU.MILLISECOND, "UTC");
      if (ct === "TIMESTAMP_MICROS") return fl.timestamp(TU.MICROSECOND, "UTC");
      if (ct === "DECIMAL") return decimal(128);
      return what;
    case "BYTE_ARRAY": {
      const a = l ?? ct ?? "";
      if (["STRING", "UTF8", "JSON"].includes(a)) return fl.utf8();
      if (["", "BSON", "ENUM", "GEOMETRY", "GEOGRAPHY"].includes(a)) return fl.binary(); // WKB
      if (a === "DECIMAL") return decimal((l ? lt.precision : el.precision) <= 38 ? 128 : 256);
      return what;
    }
    case "FIXED_LEN_BYTE_ARRAY":
      if (l === "DECIMAL" || !l && ct === "DECIMAL") return decimal(el.type_length <= 16 ? 128 : 256);
      if (!l && ct === "INTERVAL") return what;
      if (l === "FLOAT16") return el.type_length === 2 ? fl.float16() : `${what} of ${el.type_length} bytes`;
      return el.type_length > 0 ? fl.fixedSizeBinary(el.type_length) : `${what} of ${el.type_length} bytes`;
  }
  return what; // INT96
}

// sameType says whether Arrow types a and b (not nested) are the same.
const typeKeys = ["typeId", "bitWidth", "signed", "precision", "scale", "unit", "stride"];
function sameType(a, b) {
  if (!typeKeys.every((k) => a[k] === b[k]) || (a.timezone ?? null) !== (b.timezone ?? null)) return false;
  if (a.typeId !== T.Dictionary) return true;
  return sameType(a.indices, b.indices) && sameType(a.dictionary, b.dictionary);
}

// applyHint is the Arrow type arrow-rs reads a leaf as, from the type p
// its Parquet type maps to and h, its type in ARROW:schema (parquet-rs
// 59's apply_hint): h where arrow-rs takes it, else p.
function applyHint(p, h) {
  const int = (t, w) => t.typeId === T.Int && t.signed && t.bitWidth === w;
  const P = p.typeId;
  const H = h.typeId;
  if ((int(p, 32) || int(p, 64)) && H === T.Timestamp) return h;
  if (int(p, 32) && H === T.Time && h.bitWidth === 32) return h;
  if (int(p, 64) && (H === T.Time && h.bitWidth === 64 || H === T.Duration)) return h;
  if (int(p, 64) && H === T.Date && h.unit === fl.DateUnit.MILLISECOND) return h;
  if (P === T.Date && p.unit === fl.DateUnit.DAY && H === T.Date && h.unit === fl.DateUnit.MILLISECOND) return h;
  if (P === T.Timestamp && H === T.Timestamp && h.timezone && p.unit === h.unit) return h;
  // (arrow-rs also takes a coarser unit over INT96 and nanosecond
  // timestamps without a time zone: declined below, as a type it changes.)
  if (P === T.Timestamp && H === T.Timestamp && p.unit === TU.NANOSECOND && !p.timezone && h.unit !== TU.NANOSECOND) return null;
  if (P === T.Utf8 && H === T.LargeUtf8) return h;
  if (P === T.Binary && [T.LargeBinary, T.Utf8, T.LargeUtf8].includes(H)) return h;
  if (P === T.Decimal && p.bitWidth === 128 && H === T.Decimal && h.bitWidth === 256) return h;
  if (H === T.Dictionary) {
    const v = applyHint(p, h.dictionary);
    return v && sameType(v, h.dictionary) ? h : v;
  }
  return p;
}

const typeNames = { [T.Dictionary]: "dictionary", [T.Decimal]: "decimal", [T.Date]: "date", [T.Time]: "time", [T.Timestamp]: "timestamp",
  [T.Interval]: "interval", [T.Duration]: "duration", [T.Map]: "map", [T.Union]: "union", [T.FixedSizeBinary]: "fixed-size binary",
  [T.Null]: "null", [T.Float]: "float", [T.Int]: "integer", [T.Utf8]: "utf8", [T.Binary]: "binary", [T.Bool]: "bool",
  [T.LargeUtf8]: "large utf8", [T.LargeBinary]: "large binary" };
const typeName = (t) => typeNames[t.typeId] ?? `type ${t.typeId}`;

// plainValues are the dictionary value types this engine writes
// (flechette's dictionaries key values by their text: floats would merge
// -0 and 0, and it keys fixed-size binaries wrong).
const plainValues = new Set([T.Utf8, T.LargeUtf8, T.Binary, T.LargeBinary, T.Int, T.Decimal]);

// readable says why this engine does not write Arrow leaf type t, or "".
function readable(t) {
  switch (t.typeId) {
    case T.Bool: case T.Int: case T.Float: case T.Utf8: case T.LargeUtf8: case T.Binary: case T.LargeBinary:
    case T.Timestamp: case T.Date: case T.Time: case T.Duration: case T.FixedSizeBinary:
      return "";
    case T.Decimal:
      return t.bitWidth >= 128 ? "" : `the Arrow type decimal${t.bitWidth}`;
    case T.Dictionary:
      if (t.indices.bitWidth > 32) return "a dictionary of 64-bit indices";
      return plainValues.has(t.dictionary.typeId) && !readable(t.dictionary) ? "" : `a dictionary of ${typeName(t.dictionary)}`;
  }
  return `the Arrow type ${typeName(t)}`;
}

// hintedField returns the Arrow field arrow-rs reads Parquet node (the
// node of the same name) as when ARROW:schema gives it as f (f, or f with
// the type arrow-rs takes instead), or why this engine cannot read it (a
// string).
function hintedField(f, node) {
  const t = f.type;
  const el = node.element;
  const where = `column ${JSON.stringify(node.path.join("."))}`;
  const withType = (type) => (type === t ? f : { ...f, type });
  switch (t.typeId) {
    case T.List:
    case T.LargeList:
    case T.FixedSizeList: {
      if (!isList(node)) return `${where}: an Arrow list not stored as a Parquet LIST`;
      const c = hintedField(t.children[0], listItem(node));
      return typeof c === "string" ? c : withType(c === t.children[0] ? t : { ...t, children: [c] });
    }
    case T.Struct: {
      if (!node.children.length || el.converted_type || el.logical_type) return `${where}: an Arrow struct not stored as a Parquet group`;
      if (el.repetition_type === "REPEATED") return `${where}: a repeated group`;
      if (t.children.length !== node.children.length) return `${where}: ${t.children.length} struct fields for ${node.children.length} Parquet fields`;
      const kids = [];
      for (let i = 0; i < t.children.length; i++) {
        if (t.children[i].name !== node.children[i].element.name) return `${where}: struct field ${t.children[i].name} is not Parquet's ${node.children[i].element.name}`;
        const c = hintedField(t.children[i], node.children[i]);
        if (typeof c === "string") return c;
        kids.push(c);
      }
      return withType(kids.every((c, i) => c === t.children[i]) ? t : { ...t, children: kids });
    }
  }
  if (node.children.length) return `${where}: a Parquet group read as ${typeName(t)}`;
  if (el.repetition_type === "REPEATED") return `${where}: a repeated leaf outside a LIST`;
  const p = parquetType(el);
  if (typeof p === "string") return `${where}: ${p}`;
  const r = applyHint(p, t);
  if (!r) return `${where}: ${typeName(p)} of another unit than ARROW:schema's`;
  const why = readable(r);
  if (why) return `${where}: ${why}`;
  return withType(sameType(r, t) ? t : r);
}

// arrowField maps Parquet node to the Arrow field arrow-rs reads it as
// when the file has no ARROW:schema, or says why this engine cannot (a
// string).
function arrowField(node) {
  const el = node.element;
  const nullable = el.repetition_type !== "REQUIRED";
  const meta = el.field_id !== undefined ? new Map([["PARQUET:field_id", String(el.field_id)]]) : null;
  const where = `column ${JSON.stringify(node.path.join("."))}`;
  if (el.repetition_type === "REPEATED") return `${where}: a repeated field outside a LIST`;
  if (isList(node)) {
    const item = listItem(node);
    if (item.element.repetition_type === "REPEATED" && !item.children.length) {
      // Two levels: the repeated leaf is the item, never null.
      const t = leafType(item);
      return typeof t === "string" ? t : fl.field(el.name, fl.list(fl.field(item.element.name, t, false)), nullable, meta);
    }
    const child = arrowField(item.element.repetition_type === "REPEATED" ? { ...item, element: { ...item.element, repetition_type: "REQUIRED" } } : item);
    return typeof child === "string" ? child : fl.field(el.name, fl.list(child), nullable, meta);
  }
  if (node.children.length) {
    if (el.converted_type || el.logical_type) return `${where}: the Parquet group annotation ${ann(el)}`;
    const kids = node.children.map(arrowField);
    const bad = kids.find((k) => typeof k === "string");
    return bad ?? fl.field(el.name, fl.struct(kids), nullable, meta);
  }
  const t = leafType(node);
  return typeof t === "string" ? t : fl.field(el.name, t, nullable, meta);
}

// leafType is the Arrow type of a Parquet leaf without ARROW:schema, or
// why this engine does not read it.
function leafType(node) {
  const t = parquetType(node.element);
  const why = typeof t === "string" ? t : readable(t);
  return why ? `column ${JSON.stringify(node.path.join("."))}: ${why}` : t;
}

// open reads a file's footer (tail: the file's last bytes, its footer
// among them; hyparquet's metadata) and the Arrow schema to read it as. It
// returns {metadata, schema, declined}: declined is why this engine does
// not read the file ("" when it does).
export function open(tail) {
  const metadata = parquetMetadata(tail, { parsers: rawParsers, geoparquet: false });
  const tree = parquetSchema(metadata);
  const kv = metadata.key_value_metadata ?? [];
  const declined = (why) => ({ metadata, schema: null, declined: why });
  const codecs = new Set();
  for (const rg of metadata.row_groups) {
    for (const c of rg.columns) {
      if (c.file_path) return declined("column chunks in other files");
      if (!c.meta_data) return declined("a column chunk without metadata (encrypted?)");
      codecs.add(c.meta_data.codec);
    }
  }
  // A codec hyparquet lacks (LZO) is not declined: the page never asks
  // for the columns that use it (decode.ParquetCodecs), and a read of one
  // fails and goes to parquet-wasm, which says why.
  let fields;
  const metadataMap = new Map();
  for (const { key, value } of kv) if (key !== "ARROW:schema") metadataMap.set(key, value ?? "");
  const hint = kv.find((e) => e.key === "ARROW:schema");
  if (hint) {
    let s;
    try {
      s = decodeArrowSchema(hint.value ?? "");
    } catch (err) {
      return declined(`its ARROW:schema cannot be read (${err.message})`);
    }
    if (s.fields.length !== tree.children.length) return declined(`its ARROW:schema has ${s.fields.length} fields for ${tree.children.length} Parquet columns`);
    fields = [];
    for (let i = 0; i < s.fields.length; i++) {
      const f = s.fields[i];
      if (f.name !== tree.children[i].element.name) return declined(`ARROW:schema's field ${f.name} is not Parquet's ${tree.children[i].element.name}`);
      const r = hintedField(f, tree.children[i]);
      if (typeof r === "string") return declined(r);
      fields.push(r);
    }
    for (const [k, v] of s.metadata ?? []) metadataMap.set(k, v);
  } else {
    fields = tree.children.map(arrowField);
    const bad = fields.find((f) => typeof f === "string");
    if (bad) return declined(bad);
  }
  const schema = { version: fl.Version.V5, endianness: fl.Endianness.Little, fields, metadata: metadataMap.size ? metadataMap : null };
  // Reads decode the leaves' values raw (their annotations left out, so
  // hyparquet neither rounds decimals to numbers nor turns float16 into
  // numbers); write converts them for the Arrow type.
  const raw = { ...metadata, schema: metadata.schema.map((el) => (el.num_children ? el : { ...el, converted_type: undefined, logical_type: undefined })) };
  return { metadata, raw, schema, declined: "", codecs: [...codecs] };
}

// loadCodecs loads the decompressors for codecs (names), for read.
export async function loadCodecs(codecs) {
  const out = {};
  await Promise.all(codecs.filter((c) => codecLoaders[c]).map(async (c) => {
    out[c] = await codecLoaders[c]();
  }));
  return out;
}

// schemaIPC is schema as an Arrow IPC stream holding only its Schema message.
export function schemaIPC(schema) {
  const table = new fl.Table(schema, schema.fields.map((f) => new fl.Column([], f.type)));
  return fl.tableToIPC(table, { format: "stream" });
}

// Values are decoded raw (open's raw metadata): INT32 leaves as numbers,
// INT64 as bigints, FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY as Uint8Array.
// Columns of the types flechette's builders convert from JavaScript
// numbers or Dates (timestamps, dates, times, durations, float16) are
// built as the integers Arrow stores them as (storageType: the same
// buffers), exactly, and written under their own type.

// storageType is t with those types replaced by their storage integers (t
// itself when it has none).
function storageType(t) {
  switch (t.typeId) {
    case T.Timestamp:
    case T.Duration:
      return fl.int64();
    case T.Date:
      return t.unit === fl.DateUnit.DAY ? fl.int32() : fl.int64();
    case T.Time:
      return t.bitWidth === 64 ? fl.int64() : fl.int32();
    case T.Float:
      return t.precision === fl.Precision.HALF ? fl.uint16() : t;
    case T.List:
    case T.LargeList:
    case T.FixedSizeList:
    case T.Struct: {
      const kids = t.children.map((c) => {
        const s = storageType(c.type);
        return s === c.type ? c : { ...c, type: s };
      });
      return kids.every((c, i) => c === t.children[i]) ? t : { ...t, children: kids };
    }
  }
  return t;
}

// checkIndices throws when a dictionary of batch (or of its children)
// holds more values than its index type counts: flechette would wrap the
// indices, and arrow-rs fails on such a file too.
function checkIndices(batch) {
  const t = batch.type;
  if (t.typeId === T.Dictionary) {
    const max = 2 ** (t.indices.bitWidth - (t.indices.signed ? 1 : 0));
    if (batch.dictionary.length > max) throw new Error(`${batch.dictionary.length} dictionary values for ${t.indices.signed ? "" : "u"}int${t.indices.bitWidth} indices`);
  }
  for (const c of batch.children ?? []) checkIndices(c);
}

// bigEndian is the signed big-endian integer b (a Parquet decimal's bytes).
function bigEndian(b) {
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return b.length && b[0] & 0x80 ? v - (1n << BigInt(8 * b.length)) : v;
}

// adapter returns the function that turns a raw value hyparquet decoded
// into what flechette's builder for storageType(t) takes, or null when it
// takes it as it is (integers of any width and sign: typed arrays wrap
// them as Arrow stores them; the 64-bit builders take numbers too, as an
// INT32 under a timestamp of ARROW:schema).
function adapter(t) {
  switch (t.typeId) {
    case T.Utf8:
    case T.LargeUtf8:
      return (v) => (v instanceof Uint8Array ? utf8.decode(v) : v);
    case T.Binary:
    case T.LargeBinary:
      return (v) => (typeof v === "string" ? new TextEncoder().encode(v) : v);
    case T.Date:
      // Date64: INT64 milliseconds, or INT32 days (arrow-rs casts Date32).
      return t.unit === fl.DateUnit.DAY ? null : (v) => (typeof v === "bigint" ? v : BigInt(v) * 86400000n);
    case T.Float:
      return t.precision === fl.Precision.HALF ? (v) => v[0] | (v[1] << 8) : null;
    case T.Decimal:
      return (v) => (typeof v === "bigint" ? v : typeof v === "number" ? BigInt(v) : bigEndian(v));
    case T.FixedSizeBinary:
      return (v) => {
        if (v.length !== t.stride) throw new Error(`a value of ${v.length} bytes in a column of fixed-size binaries of ${t.stride}`);
        return v;
      };
    case T.Dictionary:
      return adapter(t.dictionary);
    case T.List:
    case T.LargeList:
    case T.FixedSizeList: {
      const inner = adapter(t.children[0].type);
      const n = t.typeId === T.FixedSizeList ? t.stride : -1;
      return (v) => {
        if (v == null) return v;
        if (n >= 0 && v.length !== n) throw new Error(`a list of ${v.length} values in a column of fixed-size lists of ${n}`);
        return inner ? Array.from(v, (x) => (x == null ? x : inner(x))) : v;
      };
    }
    case T.Struct: {
      const kids = t.children.map((c) => [c.name, adapter(c.type)]);
      if (kids.every(([, a]) => !a)) return null;
      return (v) => {
        if (v == null) return v;
        const o = {};
        for (const [name, a] of kids) {
          const x = v[name];
          o[name] = a && x != null ? a(x) : x;
        }
        return o;
      };
    }
  }
  return null;
}

// prefixMin is the size from which a column chunk a window of rows reads
// without a page index is read only as far as the pages that hold the
// window (readPrefix): a smaller one is read whole, with its neighbours.
const prefixMin = 256 << 10;

// windowBuffer is the file as hyparquet reads plan (a window of rows of
// one row group; null: none) from it, and listColumn the byte ranges extra:
// the column chunks read whole and extra are fetched at once, neighbours
// joined (as hyparquet's own plan does); a chunk without a page
// index that the window does not read to its end, of prefixMin bytes or
// more and without lists (its pages count rows), only up to the page that
// holds the window's last row; chunks with a page index (offset index) are
// left to hyparquet, which reads the index and then the pages the window
// needs.
function windowBuffer(file, plan, tree, extra) {
  if (!plan) return prefetchAsyncBuffer(file, { fetches: coalesce(extra) });
  if (plan.groups.length !== 1) return prefetchAsyncBuffer(file, { fetches: coalesce([...plan.fetches, ...extra]) });
  const g = plan.groups[0];
  const prefixes = new Map();
  const whole = [...extra];
  for (const chunk of g.chunks) {
    if ("offsetIndex" in chunk || "pageLocations" in chunk) continue;
    const { startByte: s, endByte: e } = chunk.range;
    let node = tree;
    let lists = false;
    for (const name of chunk.columnMetadata.path_in_schema) {
      node = node.children.find((c) => c.element.name === name);
      if (!node || node.element.repetition_type === "REPEATED") lists = true;
      if (!node) break;
    }
    if (g.selectEnd < g.groupRows && e - s >= prefixMin && !lists) {
      prefixes.set(`${s}-${e}`, readPrefix(file, s, e, g.selectEnd, g.groupRows));
    } else {
      whole.push({ startByte: s, endByte: e });
    }
  }
  const rest = prefetchAsyncBuffer(file, { fetches: coalesce(whole) });
  return { byteLength: file.byteLength, slice: (a, b) => prefixes.get(`${a}-${b}`) ?? rest.slice(a, b) };
}

// coalesce joins byte ranges at most 8 KiB apart (hyparquet's plan's
// gap) into ranges of at most 64 MiB: one request for a row group's
// columns, however big its tensor column's chunk.
function coalesce(ranges) {
  const out = [];
  for (const r of [...ranges].sort((a, b) => a.startByte - b.startByte)) {
    const last = out[out.length - 1];
    if (last && r.startByte <= last.endByte + (8 << 10) && Math.max(last.endByte, r.endByte) - last.startByte <= 64 << 20) {
      last.endByte = Math.max(last.endByte, r.endByte);
    } else {
      out.push({ ...r });
    }
  }
  return out;
}

// readPrefix reads column chunk [s, e) (of a row group of rows rows) as
// far as the end of the page that holds row need-1: a first read sized by
// the rows' share of the chunk, then, when its pages do not reach that row,
// up to the end of the page it stops in (or twice as much when it stops in
// a page's header), until they do or the chunk ends. Its pages count rows
// (num_values: the chunk has no lists; num_rows in a v2 page).
async function readPrefix(file, s, e, need, rows) {
  let buf = await file.slice(s, Math.min(e, s + Math.max(64 << 10, Math.ceil(((e - s) * need) / rows * 1.25))));
  for (;;) {
    const { cut, more } = pagesEnd(buf, need);
    if (cut >= 0) return cut === buf.byteLength ? buf : buf.slice(0, cut);
    if (s + buf.byteLength >= e) return buf;
    const next = await file.slice(s + buf.byteLength, Math.min(e, s + Math.max(more, buf.byteLength + (16 << 10))));
    const both = new Uint8Array(buf.byteLength + next.byteLength);
    both.set(new Uint8Array(buf), 0);
    both.set(new Uint8Array(next), buf.byteLength);
    buf = both.buffer;
  }
}

// pagesEnd returns where the page of buf (a column chunk's first bytes)
// that holds row need-1 ends (cut), or -1 and how many of the chunk's
// bytes to read next (more: to the end of the page buf ends in, or twice
// buf's length when it ends in a page's header).
function pagesEnd(buf, need) {
  const reader = { view: new DataView(buf), offset: 0 };
  let rows = 0;
  while (reader.offset < buf.byteLength) {
    let h;
    try {
      h = parquetHeader(reader);
    } catch {
      return { cut: -1, more: 2 * buf.byteLength }; // a header cut by the end of buf
    }
    const end = reader.offset + h.compressed_page_size;
    if (end > buf.byteLength) return { cut: -1, more: end + 256 }; // and the next page's header
    if (h.type === "DATA_PAGE") rows += h.data_page_header.num_values;
    else if (h.type === "DATA_PAGE_V2") rows += h.data_page_header_v2.num_rows;
    reader.offset = end;
    if (rows >= need) return { cut: end, more: 0 };
  }
  return { cut: -1, more: 2 * buf.byteLength };
}

// Lists of numbers (tensors: a fixed_shape_tensor is a FixedSizeList, a
// Parquet LIST) are read apart from hyparquet's assembly, which builds a
// JavaScript array per row (slow for a 224×224×3 image: 150,528 numbers):
// listColumn decodes the chunk's pages itself, with hyparquet's page
// decoders, its levels into byte arrays, straight into Arrow buffers.

// intArrays and numberArray: the typed arrays of Arrow's number types, by bit
// width and sign (floats apart; float16 as its bits, from
// FIXED_LEN_BYTE_ARRAY(2)).
const intArrays = { 8: [Uint8Array, Int8Array], 16: [Uint16Array, Int16Array], 32: [Uint32Array, Int32Array], 64: [BigUint64Array, BigInt64Array] };
function numberArray(t) {
  if (t.typeId === T.Int) return intArrays[t.bitWidth][t.signed ? 1 : 0];
  if (t.typeId === T.Float) return [Uint16Array, Float32Array, Float64Array][t.precision];
  return null;
}

// halves turns FIXED_LEN_BYTE_ARRAY(2) values (float16) into their bits.
const halves = (a) => Uint16Array.from(a, (b) => b[0] | (b[1] << 8));

// listLeaf returns the Parquet nodes of a top-level field read by
// listColumn ({list, item}: a three-level LIST of a number leaf, List or
// FixedSizeList of a number type), or null.
function listLeaf(f, node) {
  const t = f.type;
  if (t.typeId !== T.List && t.typeId !== T.FixedSizeList) return null;
  if (!numberArray(t.children[0].type) || !isList(node)) return null;
  const rep = node.children[0];
  if (rep.children.length !== 1) return null;
  const item = rep.children[0];
  if (item.children.length || item.element.repetition_type === "REPEATED") return null;
  return { list: node, item };
}

class Unsupported extends Error {}

// listPages reads what listColumn decodes of column chunk chunk (of a row
// group of rows rows) for rows [start, end): the whole chunk, or, for a
// window (narrowed) of a chunk with a page index, its dictionary page and
// the pages that hold the window's rows (the offset index says where). It
// returns the bytes and the row the first data page among them starts at.
async function listPages(file, chunk, rows, narrowed, start, end) {
  const meta = chunk.meta_data;
  const s = Number(meta.dictionary_page_offset || meta.data_page_offset);
  const e = s + Number(meta.total_compressed_size);
  if (!narrowed || !chunk.offset_index_offset) return [await file.slice(s, e), 0];
  const at = Number(chunk.offset_index_offset);
  const index = await file.slice(at, at + chunk.offset_index_length);
  const pages = readOffsetIndex({ view: new DataView(index), offset: 0 }).page_locations;
  let first = -1;
  let last = -1;
  pages.forEach((p, i) => {
    const from = Number(p.first_row_index);
    const to = i + 1 < pages.length ? Number(pages[i + 1].first_row_index) : rows;
    if (from < end && to > start) {
      if (first < 0) first = i;
      last = i;
    }
  });
  if (first < 0) return [await file.slice(s, e), 0];
  const from = Number(pages[first].offset);
  const to = Number(pages[last].offset) + pages[last].compressed_page_size;
  const dict = Number(pages[0].offset) > s; // a dictionary page before the data pages
  if (!dict || first === 0) return [await file.slice(dict ? s : from, to), Number(pages[first].first_row_index)];
  const [head, body] = await Promise.all([file.slice(s, Number(pages[0].offset)), file.slice(from, to)]);
  const both = new Uint8Array(head.byteLength + body.byteLength);
  both.set(new Uint8Array(head), 0);
  both.set(new Uint8Array(body), head.byteLength);
  return [both.buffer, Number(pages[first].first_row_index)];
}

const bitWidth = (n) => 32 - Math.clz32(n);

// listColumn decodes rows [start, end) of a column chunk (buf, its bytes
// from the chunk's first page on; meta its ColumnMetaData) of a field read
// by listLeaf as a flechette Column of type t. It throws Unsupported for an
// encoding it does not decode (hyparquet's general path then reads it).
function listColumn(buf, meta, t, { list, item }, start, end, compressors) {
  const el = item.element;
  const listOpt = list.element.repetition_type === "OPTIONAL";
  const itemOpt = el.repetition_type === "OPTIONAL";
  const defList = listOpt ? 1 : 0; // present but empty
  const maxDef = defList + 1 + (itemOpt ? 1 : 0);
  const rows = end - start;
  const Values = numberArray(t.children[0].type);
  const stride = t.typeId === T.FixedSizeList ? t.stride : -1;
  let child = new Values(stride >= 0 ? rows * stride : 1024);
  let childValid = null; // a byte per child slot, once one is null
  const offsets = stride >= 0 ? null : new Int32Array(rows + 1);
  const listNull = new Uint8Array(rows);
  let nullRows = 0;
  let pos = 0; // child slots written
  let row = -1; // the row group's row of the last level read
  let dictionary = null;
  const reader = { view: new DataView(buf), offset: 0 };
  const grow = (n) => {
    if (n <= child.length) return;
    const bigger = new Values(Math.max(n, 2 * child.length));
    bigger.set(child);
    child = bigger;
    if (childValid) {
      const v = new Uint8Array(bigger.length);
      v.set(childValid);
      childValid = v;
    }
  };
  const setNull = (k) => {
    if (!childValid) childValid = new Uint8Array(child.length).fill(1);
    childValid[k] = 0;
  };
  const plain = (r, type, n) => {
    const v = readPlain(r, type, n, el.type_length);
    return type === "FIXED_LEN_BYTE_ARRAY" ? halves(v) : v;
  };
  const values = (r, encoding, type, n, bytes) => {
    if (encoding === "PLAIN") return plain(r, type, n);
    if (encoding === "PLAIN_DICTIONARY" || encoding === "RLE_DICTIONARY") {
      if (!dictionary) throw new Error("a dictionary-encoded page without a dictionary page");
      const width = r.view.getUint8(r.offset++);
      const idx = new Int32Array(n);
      if (width) readRleBitPackedHybrid(r, width, idx, bytes - 1);
      const out = new Array(n);
      for (let i = 0; i < n; i++) out[i] = dictionary[idx[i]];
      return out;
    }
    throw new Unsupported(encoding);
  };
  while (reader.offset < buf.byteLength - 1 && row < end) {
    const h = parquetHeader(reader);
    const page = new Uint8Array(buf, reader.offset, h.compressed_page_size);
    reader.offset += h.compressed_page_size;
    if (h.type === "DICTIONARY_PAGE") {
      const bytes = decompressPage(page, Number(h.uncompressed_page_size), meta.codec, compressors);
      dictionary = plain({ view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 }, meta.type, h.dictionary_page_header.num_values);
      continue;
    }
    let n, rep, def, vals;
    if (h.type === "DATA_PAGE") {
      const d = h.data_page_header;
      n = d.num_values;
      const bytes = decompressPage(page, Number(h.uncompressed_page_size), meta.codec, compressors);
      const r = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
      rep = new Uint8Array(n);
      readRleBitPackedHybrid(r, 1, rep);
      def = new Uint8Array(n);
      readRleBitPackedHybrid(r, bitWidth(maxDef), def);
      let nonNull = 0;
      for (let i = 0; i < n; i++) if (def[i] === maxDef) nonNull++;
      vals = values(r, d.encoding, meta.type, nonNull, bytes.byteLength - r.offset);
    } else if (h.type === "DATA_PAGE_V2") {
      const d = h.data_page_header_v2;
      n = d.num_values;
      const r = { view: new DataView(buf, page.byteOffset, page.byteLength), offset: 0 };
      rep = new Uint8Array(n);
      readRleBitPackedHybrid(r, 1, rep, d.repetition_levels_byte_length);
      def = new Uint8Array(n);
      readRleBitPackedHybrid(r, bitWidth(maxDef), def, d.definition_levels_byte_length);
      let bytes = page.subarray(d.repetition_levels_byte_length + d.definition_levels_byte_length);
      const size = Number(h.uncompressed_page_size) - d.repetition_levels_byte_length - d.definition_levels_byte_length;
      if (d.is_compressed !== false && size) bytes = decompressPage(bytes, size, meta.codec, compressors);
      const vr = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
      vals = values(vr, d.encoding, meta.type, d.num_values - d.num_nulls, bytes.byteLength);
    } else {
      throw new Unsupported(h.type);
    }
    let vi = 0;
    for (let i = 0; i < n; i++) {
      const dl = def[i];
      if (rep[i] === 0) {
        row++;
        if (row >= end) break;
        if (row >= start) {
          const k = row - start;
          if (offsets) offsets[k] = pos;
          else if (k > 0 && pos !== k * stride) throw new Error(`a list of ${pos - (k - 1) * stride} values in a column of fixed-size lists of ${stride}`);
          if (dl < defList) {
            listNull[k] = 1;
            nullRows++;
            if (stride >= 0) {
              for (let j = 0; j < stride; j++) setNull(pos + j);
              pos += stride;
            }
          }
        }
      }
      if (row < start) {
        if (dl === maxDef) vi++;
        continue;
      }
      if (dl <= defList) continue; // a null or empty list
      if (offsets) grow(pos + 1);
      else if (pos >= rows * stride) throw new Error(`a list of more than ${stride} values in a column of fixed-size lists of ${stride}`);
      if (dl === maxDef) child[pos] = vals[vi++];
      else setNull(pos);
      pos++;
    }
  }
  if (row < end - 1) throw new Error(`column ${meta.path_in_schema.join(".")}: ${row + 1} rows in its chunk, not ${end}`);
  if (offsets) offsets[rows] = pos;
  else if (rows && pos !== rows * stride) throw new Error(`a list of ${pos - (rows - 1) * stride} values in a column of fixed-size lists of ${stride}`);
  const bitmap = (bytes, n) => {
    const out = new Uint8Array(((n + 63) >> 6) << 3);
    for (let i = 0; i < n; i++) if (bytes[i]) out[i >> 3] |= 1 << (i & 7);
    return out;
  };
  const ct = t.children[0].type;
  let childNulls = 0;
  if (childValid) for (let i = 0; i < pos; i++) if (!childValid[i]) childNulls++;
  const childBatch = new (fl.batchType(ct))({
    length: pos, nullCount: childNulls, type: ct,
    validity: childNulls ? bitmap(childValid, pos) : new Uint8Array(0),
    values: child.length === pos ? child : child.slice(0, pos),
  });
  const valid = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) valid[i] = listNull[i] ? 0 : 1;
  const batch = new (fl.batchType(t))({
    length: rows, nullCount: nullRows, type: t,
    validity: nullRows ? bitmap(valid, rows) : new Uint8Array(0),
    offsets: offsets ?? undefined,
    children: [childBatch],
  });
  return new fl.Column(rows ? [batch] : [], t);
}

// read reads rows [offset, offset+limit) of row group rowGroup of the
// top-level fields named (null: all) and returns them as an Arrow IPC
// stream (Uint8Array): the schema of those fields, then one record batch.
// file is hyparquet's AsyncBuffer over the file; opened is open's answer;
// compressors are loadCodecs's.
export async function read(file, opened, compressors, rowGroup, offset, limit, names) {
  try {
    return await readWindow(file, opened, compressors, rowGroup, offset, limit, names, true);
  } catch (err) {
    if (!(err instanceof Unsupported)) throw err;
    return readWindow(file, opened, compressors, rowGroup, offset, limit, names, false);
  }
}

async function readWindow(file, opened, compressors, rowGroup, offset, limit, names, lists) {
  const { raw: metadata, schema } = opened;
  const fields = names ? names.map((n) => {
    const f = schema.fields.find((x) => x.name === n);
    if (!f) throw new Error(`no column ${JSON.stringify(n)}`);
    return f;
  }) : schema.fields;
  const rg = metadata.row_groups[rowGroup];
  if (!rg) throw new Error(`no row group ${rowGroup}`);
  const rows = Number(rg.num_rows);
  const start = Math.max(0, Math.min(offset, rows));
  const end = Math.max(start, Math.min(offset + limit, rows));
  let groupStart = 0;
  for (let i = 0; i < rowGroup; i++) groupStart += Number(metadata.row_groups[i].num_rows);
  const tree = parquetSchema(metadata);
  // The fields listColumn reads: lists of numbers.
  const listed = new Map();
  const narrowed = start > 0 || end < rows;
  for (const f of lists && end > start ? fields : []) {
    const node = tree.children.find((c) => c.element.name === f.name);
    const leaf = node && listLeaf(f, node);
    const chunks = rg.columns.filter((c) => c.meta_data?.path_in_schema[0] === f.name);
    if (leaf && chunks.length === 1) listed.set(f.name, { leaf, chunk: chunks[0] });
  }
  // The chunks listColumn reads whole are fetched with the others.
  const extra = [];
  for (const { chunk } of listed.values()) {
    if (narrowed && chunk.offset_index_offset) continue; // listPages picks its pages
    const s = Number(chunk.meta_data.dictionary_page_offset || chunk.meta_data.data_page_offset);
    extra.push({ startByte: s, endByte: s + Number(chunk.meta_data.total_compressed_size) });
  }
  const rest = fields.filter((f) => !listed.has(f.name));
  const prepared = end > start && rest.length ? await prepareParquetRead({
    file, metadata, columns: rest.map((f) => f.name), rowStart: groupStart + start, rowEnd: groupStart + end,
    useOffsetIndex: true, utf8: false, parsers: rawParsers, compressors,
  }) : null;
  const wfile = windowBuffer(file, prepared?.plan, tree, extra);
  const lcols = new Map();
  const listReads = [...listed].map(async ([name, { leaf, chunk }]) => {
    const [buf, skipped] = await listPages(wfile, chunk, rows, narrowed, start, end);
    const t = fields.find((f) => f.name === name).type;
    lcols.set(name, listColumn(buf, chunk.meta_data, t, leaf, start - skipped, end - skipped, compressors));
  });
  const columns = new Map();
  if (prepared) {
    const { plan } = prepared;
    const ropts = { ...prepared.options, file: wfile };
    const groups = plan.groups.map((g) => readRowGroup(ropts, plan, g));
    const assembled = groups.map((g) => assembleAsync(g, tree, rawParsers));
    const results = await Promise.allSettled([...listReads, ...assembled.flatMap((g) => g.asyncColumns.map((c) => c.data))]);
    const failed = results.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    for (const g of assembled) {
      const selectStart = g.selectStart ?? groupStart + start - g.groupStart;
      const selectEnd = g.selectEnd ?? groupStart + end - g.groupStart;
      for (const c of g.asyncColumns) {
        const { data, skipped } = await c.data;
        const values = flatten(data);
        const part = values.slice(selectStart - skipped, selectEnd - skipped);
        const name = c.pathInSchema[0];
        const prev = columns.get(name);
        columns.set(name, prev ? [...prev, ...part] : part);
      }
    }
  } else {
    const results = await Promise.allSettled(listReads);
    const failed = results.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  }
  const n = end - start;
  const cols = fields.map((f) => {
    if (lcols.has(f.name)) return lcols.get(f.name);
    let values = columns.get(f.name) ?? [];
    if (n && values.length !== n) throw new Error(`column ${f.name}: ${values.length} values decoded for ${n} rows`);
    const a = adapter(f.type);
    if (a) values = Array.from(values, (v) => (v == null ? v : a(v)));
    const col = fl.columnFromValues(values, storageType(f.type), { useBigInt: true });
    for (const b of col.data) checkIndices(b);
    return col;
  });
  const table = new fl.Table({ ...schema, fields }, cols);
  return fl.tableToIPC(table, { format: "stream" });
}
