// Runs web/parquet-worker.js (tensorview's Parquet reader worker) in a
// Node.js worker thread for the tests (parquet_conformance.mjs): the
// browser's worker globals it uses (postMessage, onmessage,
// addEventListener) over worker_threads' parentPort, and parquet-wasm's
// wasm handed over as bytes (the browser fetches it).
//
// parquetWorker(web) returns {request(msg), ranges, close()}: request sends
// an open or read message and resolves with the answer; a file by size is
// served from msg.data (a Uint8Array, not sent), each byte range the
// worker asks for recorded in ranges as [start, end).

import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer } from 'node:http';

if (!isMainThread) {
  const listeners = {};
  globalThis.onmessage = null;
  globalThis.addEventListener = (type, fn) => { (listeners[type] ??= []).push(fn); };
  globalThis.postMessage = (msg, transfer) => parentPort.postMessage(msg, transfer);
  globalThis.tensorviewParquetWasm = readFileSync(join(workerData.web, 'parquet', 'parquet_wasm_bg.wasm'));
  process.on('uncaughtException', (error) => {
    for (const fn of listeners.error ?? []) fn({ error, message: String(error?.message ?? error), preventDefault() {} });
  });
  process.on('unhandledRejection', (reason) => {
    for (const fn of listeners.unhandledrejection ?? []) fn({ reason, preventDefault() {} });
  });
  await import(pathToFileURL(join(workerData.web, 'parquet-worker.js')).href);
  parentPort.on('message', (data) => globalThis.onmessage({ data }));
}

export function parquetWorker(web) {
  const w = new Worker(new URL(import.meta.url), { workerData: { web } });
  const pending = new Map();
  const ranges = [];
  let data = null;
  let nextID = 0;
  let earlyDone = null;
  let server = null;
  w.on('message', (m) => {
    if (m.op === 'range') {
      ranges.push([m.start, m.end]);
      if (!data || m.start < 0 || m.end > data.length || m.end < m.start) {
        w.postMessage({ op: 'range', rid: m.rid, error: `bytes ${m.start} to ${m.end} are outside the file` });
        return;
      }
      const bytes = data.slice(m.start, m.end).buffer;
      w.postMessage({ op: 'range', rid: m.rid, bytes }, [bytes]);
      return;
    }
    if (m.op === 'early') {
      earlyDone?.(m);
      return;
    }
    const p = pending.get(m.id);
    pending.delete(m.id);
    p?.(m);
  });
  w.on('exit', () => {
    for (const p of pending.values()) p({ error: 'the worker exited', crashed: true });
    pending.clear();
  });
  w.on('error', (err) => {
    for (const p of pending.values()) p({ error: String(err?.message ?? err), crashed: true });
    pending.clear();
  });
  return {
    ranges,
    request(msg) {
      const id = nextID++;
      const out = { ...msg, id };
      if (msg.data) {
        data = msg.data;
        delete out.data;
        out.size = data.length;
      }
      return new Promise((resolve) => {
        pending.set(id, resolve);
        w.postMessage(out);
      });
    },
    // early has the worker read data's first pages early ({op: "early"},
    // as web/boot.js has it: its probe's bytes sent, the rest fetched by
    // the worker from an HTTP server here, each range recorded in ranges
    // too) and returns a promise of its answer.
    async early(bytes) {
      data = bytes;
      server = createServer((req, res) => {
        const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
        const [a, b] = m ? [Number(m[1]), Number(m[2]) + 1] : [0, 0];
        if (!m || b > data.length || b <= a) {
          res.writeHead(416).end();
          return;
        }
        ranges.push([a, b]);
        res.writeHead(206, { 'Content-Range': `bytes ${a}-${b - 1}/${data.length}`, 'Content-Length': b - a });
        res.end(data.subarray(a, b));
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
      const probe = Math.min(data.length, 256 << 10); // web/boot.js's PROBE
      return new Promise((resolve) => {
        earlyDone = resolve;
        w.postMessage({ op: 'early', url: `http://127.0.0.1:${server.address().port}/file`, size: data.length, etag: null, modified: null, probe });
        const first = data.slice(0, probe).buffer;
        w.postMessage({ op: 'probe', bytes: first }, [first]);
      });
    },
    close: () => {
      server?.close();
      return w.terminate();
    },
  };
}

// seeded returns the test files' number source, the same on every run:
// rand (xorshift32, numbers in [0, 1)), range(n, f) (an array of f(i))
// and bytes(n) (n random bytes).
export function seeded(seed = 0x9e3779b9) {
  const rand = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4294967296;
  };
  const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
  const bytes = (n) => Uint8Array.from(range(n, () => Math.floor(rand() * 256)));
  return { rand, range, bytes };
}
