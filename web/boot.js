// tensorview's boot script: a plain script the page loads in <head>, before
// go-app's loader (app.js) fetches and starts the wasm. index.html is the
// empty page rendered on the server (app/ui/boot.go), so it is usable at
// once; until the wasm has started, this script takes what is asked of it:
//
//   - a file picked (Open file…) or dropped on the page waits here, and the
//     app opens it when it starts (window.tensorviewBoot.take(open), called
//     from the Viewer's OnMount, which also ends this script's part);
//   - a file picked in a file chooser opened from this page's input, or
//     dropped on a drag this page answered, after the app started goes to
//     the app too (take's open): go-app's start replaces the server-rendered
//     page with nodes of its own, and the browser still sends the change
//     or the drop to the old node, out of the document, where only this
//     script's listeners on the old page hear it;
//   - a sample clicked or a URL submitted becomes the page's address
//     ("?url=…", history.pushState, no reload), which the app opens when it
//     starts, as it opens any link;
//   - a link makes the app's first requests while the wasm downloads and
//     starts, each held for the app's Fetcher (app/browser), which takes
//     one when it would make the same request (app/remote.Prefetch: the
//     same address, or the one it redirected to, and the same Range
//     header): for a dataset (?hf=, the Hub's list of its Parquet files;
//     ?urls=, a list of links) the listing, a plain GET; for a file
//     (?url=) app/remote.Open's probe (its first PROBE bytes) and, once
//     that answers 206 with the file's size for a Parquet or Arrow IPC
//     file, the read of its end (its last TAIL bytes, past the probe) that
//     the app makes next; for a Parquet file the Parquet reader's worker
//     is started instead (at once for an address ending in ".parquet")
//     and loads its engine, for the app to adopt (takeWorker), and reads
//     the footer and the first screen's pages (readEarly), which the
//     app's open and first read take. Only an address the app builds the
//     same way is fetched, with single ranges (bytes=a-b) and no other header (no
//     CORS preflight); a range request answered otherwise than 206 is
//     dropped (the app makes its own, and says what is wrong), but for the
//     probe answered 200 by a server that ignores Range (the app
//     downloads that response, as it would its own). Once the app has
//     opened the file it releases what it did not take: those requests
//     are aborted, the worker terminated.
//
// A link to a file (?url=…) or an embed (embed=1) keeps go-app's loader
// over the page until the app starts (web/style.css, :root[data-boot=link]).
// It also applies the remembered colour theme (app/ui/theme.go) before the
// first paint. File names are set as text, never as HTML.
(() => {
  "use strict";
  const root = document.documentElement;
  try {
    // go-app's local storage holds JSON values.
    const theme = JSON.parse(localStorage.getItem("tensorview-theme"));
    if (theme === "light" || theme === "dark") root.setAttribute("data-theme", theme);
  } catch (e) {
    // No storage (private mode, a sandboxed frame) or no valid value: follow the system.
  }

  let queued = null; // {file: File}, for the app
  let live = true; // false once the app has taken over
  let handOff = null; // the app's open(file), once it has taken over
  const listeners = [];
  const listen = (type, fn) => {
    document.addEventListener(type, fn, true);
    listeners.push([type, fn]);
  };
  // The requests made for the app (hold), oldest first, until it takes or
  // releases them: {id, url, final, range, response, abort}.
  const held = [];
  let nextID = 1;
  let released = false; // the app has opened its file: nothing more is made
  let early = null; // {url, worker}: a Parquet reader's worker for the link's file
  let earlyRead = null; // its early reading's end, before the app adopted it: {bytes, error}
  let spare = null; // a Parquet reader's worker started ahead of a file (startSpare), until the app takes it
  window.tensorviewBoot = {
    // prefetches lists the requests held ({id, url, final, range}; final:
    // where the response came from after redirects, once it answered).
    prefetches() {
      return held.map((p) => ({ id: p.id, url: p.url, final: p.final, range: p.range }));
    },
    // takePrefetch hands the app request id ({response, abort}: response
    // a promise of the Response, or of null when a range request was
    // answered otherwise than 206, or 200 for the probe: the app makes its
    // own), once; null when gone.
    takePrefetch(id) {
      const i = held.findIndex((p) => p.id === id);
      if (i < 0) return null;
      const [p] = held.splice(i, 1);
      return { response: p.response, abort: p.abort };
    },
    // takeWorker hands the app the Parquet reader's worker started for
    // the file at url (the link's address), once; null when none.
    takeWorker(url) {
      if (!early || early.url !== url) return null;
      const w = early.worker;
      early = null;
      return w;
    },
    // takeSpare hands the app the Parquet reader's worker started ahead of
    // a file about to be picked or dropped (startSpare; its engine loaded
    // or loading), once; null when none.
    takeSpare() {
      const w = spare;
      spare = null;
      return w;
    },
    // earlyRead says how the early worker's reading ended ({bytes: how
    // many it fetched, error: "" or why it stopped, probe: "" or why the
    // probe's bytes did not reach it}), when it did before the app adopted
    // it; else null.
    earlyRead() {
      return earlyRead;
    },
    // release aborts the requests the app did not take and terminates a
    // worker it did not adopt: call it once the app has opened its file.
    release,
    // queued names the file waiting for the app, or returns null.
    queued() {
      return queued ? queued.file.name : null;
    },
    // take returns what the app is to open ({file}) or null, and stops
    // this script from taking events: the app's own handlers have them.
    // A file picked later in a chooser of this page's input (gone from
    // the document since the app started) is passed to open(file).
    take(open) {
      live = false;
      handOff = typeof open === "function" ? open : null;
      for (const [type, fn] of listeners) document.removeEventListener(type, fn, true);
      const q = queued;
      queued = null;
      return q;
    },
  };

  // release: see tensorviewBoot.release.
  function release() {
    released = true;
    for (const p of held.splice(0)) p.abort.abort();
    if (early) early.worker.terminate();
    early = null;
  }

  // PROBE is how many bytes app/remote.Open asks for first (DefaultBlock:
  // app/remote's TestBootProbe checks it), TAIL how many bytes at a
  // file's end the app reads next (app/decode's endsChunk, the Parquet
  // worker's TAIL: app/decode's TestBootTail).
  const PROBE = 262144;
  const TAIL = 65536;

  // hold makes a GET of url, with a Range header when range is not "",
  // for the app. A range request answered otherwise than 206 is dropped
  // (its promise gives null: the app makes its own request and says what
  // is wrong), but for a 200 when whole is true: a server that ignores
  // Range sends the whole file, which the app downloads as it would its
  // own request's. A range request bypasses the HTTP cache, as the app's
  // (app/browser.Fetcher). answered is called with a 206 response before the app
  // can take it.
  const hold = (url, range, answered, whole) => {
    const abort = new AbortController();
    const p = { id: nextID++, url, final: "", range, abort, response: null };
    const fetched = fetch(url, range === "" ? { signal: abort.signal } : { signal: abort.signal, headers: { Range: range }, cache: "no-store" });
    if (range === "") {
      fetched.catch(() => {}); // the app sees a failure when it takes it
      p.response = fetched;
    } else {
      p.response = fetched.then(
        (r) => {
          if (r.status === 200 && whole) return r;
          if (r.status !== 206) {
            abort.abort(); // the app asks again and says what is wrong
            return null;
          }
          p.final = r.url;
          try {
            if (answered) answered(r);
          } catch (e) {
            // What comes next is the app's to ask for.
          }
          return r;
        },
        () => null,
      );
    }
    held.push(p);
  };

  // fileURL is the address the app resolves ?url= to (app/remote.CheckURL,
  // then url.URL.String()), or null when the link names none the app
  // would fetch or one this script cannot build exactly as the app does:
  // only http(s) addresses (none http: from an https: page but on
  // localhost), absolute ones already written as the browser writes them
  // (a lowercase host, no default port, no character it escapes),
  // relative ones of plain characters without dot segments.
  const fileURL = (params) => {
    if (params.getAll("url").length !== 1 || params.has("urls") || params.has("hf")) return null;
    const raw = params.get("url").trim().replace(/#.*$/, "");
    if (!/^[A-Za-z0-9\-._~!$&()*+,;=:@\/?%[\]]+$/.test(raw) || /%(?![0-9A-Fa-f]{2})/.test(raw)) return null;
    let u;
    try {
      u = new URL(raw, location.href);
    } catch (e) {
      return null;
    }
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw)) {
      if (u.href !== raw) return null;
    } else if (raw.startsWith("//") || /(^|\/)\.\.?(\/|\?|$)/.test(raw.split("?")[0])) {
      return null;
    }
    if (u.protocol !== "https:" && u.protocol !== "http:") return null;
    const local = u.hostname === "localhost" || u.hostname.endsWith(".localhost") || u.hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(u.hostname);
    if (location.protocol === "https:" && u.protocol === "http:" && !local) return null;
    return u.host === "" ? null : u.href;
  };

  // startsWith reports whether the first bytes of body (a Response's
  // stream, a clone's: read, then cancelled) are one of magics.
  const startsWith = async (body, magics) => {
    const reader = body.getReader();
    const head = new Uint8Array(8);
    let n = 0;
    try {
      while (n < head.length) {
        const { value, done } = await reader.read();
        if (done) break;
        const k = Math.min(head.length - n, value.length);
        head.set(value.subarray(0, k), n);
        n += k;
      }
    } finally {
      reader.cancel().catch(() => {});
    }
    const text = String.fromCharCode(...head.subarray(0, n));
    return magics.find((m) => text.startsWith(m)) ?? null;
  };

  // prefetchFile holds the requests the app makes first for the file at
  // addr: the probe, then, when it answered 206 with the file's size
  // (Content-Range visible) for a Parquet or an Arrow IPC file larger than
  // the probe, the read of its end; a Parquet file's reader's worker
  // starts meanwhile (web/parquet-worker.js, warming its engine): at
  // once when the address's path ends in ".parquet" (the engine loads
  // while the probe is read; a guess the probe belies is terminated), else
  // once the probe's first bytes say "PAR1".
  const prefetchFile = (addr) => {
    let guessed = null;
    try {
      if (typeof Worker === "function" && /\.parquet$/i.test(new URL(addr).pathname)) guessed = startWorker(addr);
    } catch (e) {
      // Not an address the worker's guess can read: the probe decides.
    }
    hold(addr, "bytes=0-" + (PROBE - 1), (r) => {
      const m = /^bytes 0-(\d+)\/(\d+)$/.exec(r.headers.get("content-range") || "");
      let clone, whole;
      try {
        clone = r.clone();
        // Read at once, for a Parquet file's early worker: the app aborts
        // the probe's transfer once it has read it (which a clone's
        // unread part would not survive).
        whole = m ? r.clone().arrayBuffer() : Promise.reject(new Error("no size"));
        whole.catch(() => {});
      } catch (e) {
        return;
      }
      startsWith(clone.body, ["PAR1", "ARROW1"]).then((magic) => {
        if (released) return;
        const parquet = magic === "PAR1" && typeof Worker === "function";
        if (!parquet && guessed && early && early.worker === guessed) {
          early = null;
          guessed.terminate();
        }
        if (!magic) return;
        const size = m ? Number(m[2]) : 0;
        // A Parquet file's worker reads early (its end too) when the probe
        // said the file's size.
        const reads = parquet && m !== null;
        if (!reads && m && Number(m[1]) === PROBE - 1 && size > PROBE) {
          hold(r.url, "bytes=" + Math.max(PROBE, size - TAIL) + "-" + (size - 1));
        }
        if (!parquet) return;
        const w = early && early.url === addr ? early.worker : startWorker(addr);
        if (w && reads) readEarly(w, { url: r.url, size, etag: r.headers.get("etag"), modified: r.headers.get("last-modified"), probe: Number(m[1]) + 1, body: whole });
      }, () => {});
    }, true);
  };

  // startWorker starts the Parquet reader's worker for the file at url
  // (warmReader), held for the app to adopt (takeWorker), and returns it.
  const startWorker = (url) => {
    const w = warmReader((x) => {
      if (!early || early.worker !== x) return false;
      early = null;
      return true;
    });
    if (w) early = { url, worker: w };
    return w;
  };

  // warmReader starts a Parquet reader's worker (web/parquet-worker.js, as
  // app/browser's parquetWorker does), has it load its engine and returns
  // it, or null if the browser refused it. One that fails to load is not
  // handed over (the app starts its own, which says why): drop(w) lets go
  // of it, reporting whether it was still this script's, and it is
  // terminated.
  const warmReader = (drop) => {
    let w;
    try {
      w = new Worker("web/parquet-worker.js", { type: "module" });
    } catch (e) {
      return null;
    }
    w.addEventListener("error", () => {
      if (drop(w)) w.terminate();
    });
    w.postMessage({ op: "warm" });
    return w;
  };

  // readEarly has worker w, started for a Parquet file whose probe said
  // its size (at: {url (the address the probe came from), size, etag,
  // modified (its validators), probe (how many bytes it holds), body (a
  // promise of them)}), read early what the app's open and first read
  // will ask for (web/parquet-worker.js's readEarly): the worker fetches
  // those ranges itself, off this page's thread, which the app's start
  // keeps busy, but for the probe's bytes, sent to it once they are in.
  // Once the app has adopted it, it asks the app for bytes, as always.
  const readEarly = (w, at) => {
    w.onmessage = (e) => {
      const msg = e.data;
      if (msg && msg.op === "early") earlyRead = { bytes: msg.bytes, error: msg.error, probe: msg.probe };
    };
    const { body, ...file } = at;
    w.postMessage({ op: "early", ...file });
    body.then(
      (bytes) => {
        if (bytes.byteLength === at.probe) w.postMessage({ op: "probe", bytes }, [bytes]);
        else w.postMessage({ op: "probe", error: "the first bytes were cut short" });
      },
      (e) => w.postMessage({ op: "probe", error: String((e && e.message) || e) }),
    );
  };

  const viewer = () => document.querySelector(".viewer");
  // status says what will happen in the drop zone's status line.
  const status = (text) => {
    const line = document.querySelector("[data-role=starting]");
    if (line) line.textContent = text;
    const v = viewer();
    if (v && v.getAttribute("data-ready") !== "true") v.setAttribute("data-state", "loading");
  };

  // listingURL is the address the app first GETs for a dataset link
  // (app/listing.Hub's listing of ?hf=, app/ui's list of ?urls=), or null
  // when the link names none or one this script cannot build exactly as
  // the app does (a name the Hub refuses, a hub= or urls= address not
  // written in its normal form).
  const listingURL = (params) => {
    if (params.has("hf")) {
      const id = params.get("hf");
      const part = /^[A-Za-z0-9_]([A-Za-z0-9_.-]{0,94}[A-Za-z0-9_])?$/; // app/listing.CheckDataset
      const parts = id.split("/");
      if (parts.length > 2 || id.includes("--") || id.includes("..") || id.endsWith(".git") || !parts.every((p) => part.test(p))) return null;
      let base = "https://huggingface.co";
      const hub = (params.get("hub") || "").trim();
      if (hub !== "") {
        let u;
        try {
          u = new URL(hub);
        } catch (e) {
          return null;
        }
        base = (u.protocol + "//" + u.host + u.pathname).replace(/\/$/, "");
        if ((u.protocol !== "http:" && u.protocol !== "https:") || hub.replace(/\/$/, "") !== base) return null;
      }
      let addr = base + "/api/datasets/" + id + "/parquet";
      const config = params.get("config") || "";
      const split = params.get("split") || "";
      if (config !== "" && split !== "") {
        if (!/^[A-Za-z0-9_.-]+$/.test(config) || !/^[A-Za-z0-9_.-]+$/.test(split)) return null;
        addr += "/" + config + "/" + split;
      }
      return addr;
    }
    const list = params.get("urls");
    if (list === null || !/^https?:\/\//.test(list)) return null;
    try {
      return new URL(list).href === list ? list : null;
    } catch (e) {
      return null;
    }
  };

  const params = new URLSearchParams(location.search);
  if (params.has("url") || params.has("urls") || params.has("hf") || params.get("embed") === "1") {
    root.setAttribute("data-boot", "link");
    if (typeof fetch === "function") {
      const listing = listingURL(params);
      const file = fileURL(params);
      if (listing !== null) hold(listing, "");
      else if (file !== null) prefetchFile(file);
    }
    document.addEventListener("DOMContentLoaded", () => {
      const v = viewer();
      if (v && v.getAttribute("data-ready") !== "true") v.setAttribute("data-state", "loading");
    });
    return;
  }

  // startSpare starts a Parquet reader's worker (web/parquet-worker.js,
  // its engine loading) on a sign that a file is about to be picked or
  // dropped: a drag carrying files enters the page, or the file chooser's
  // button is pressed or focused. The app adopts it for the next Parquet
  // file it opens (takeSpare), which then need not wait for the worker's
  // script and engine: they load while the person drags or picks. One at
  // most waits; without such a sign the Parquet reader is not loaded (a
  // page that views only Arrow files, or a link, never loads it).
  const startSpare = () => {
    if (spare || typeof Worker !== "function") return;
    spare = warmReader((x) => {
      if (spare !== x) return false;
      spare = null;
      return true;
    });
  };
  document.addEventListener("dragenter", (e) => {
    if (e.dataTransfer && Array.from(e.dataTransfer.types || []).includes("Files")) startSpare();
  }, true);
  for (const type of ["pointerdown", "focusin"]) {
    document.addEventListener(type, (e) => {
      const t = e.target;
      if (!t || typeof t.closest !== "function") return;
      const label = t.closest("label");
      if (t.matches("input[data-role=file-input]") || (label && label.querySelector("input[data-role=file-input]"))) startSpare();
    }, true);
  }

  // When go-app's loader fails (it stops the icon's spin and writes the
  // error into its label), say so where the person looks.
  document.addEventListener("DOMContentLoaded", () => {
    const icon = document.getElementById("app-wasm-loader-icon");
    const label = document.getElementById("app-wasm-loader-label");
    if (!icon || !label) return;
    new MutationObserver((_, obs) => {
      if (!live || icon.classList.contains("goapp-spin") || !icon.isConnected) return;
      obs.disconnect();
      status("tensorview could not start: " + label.textContent);
      const v = viewer();
      if (v) v.setAttribute("data-state", "error");
    }).observe(icon, { attributes: true, attributeFilter: ["class"] });
  });

  const queueFile = (file) => {
    queued = { file };
    // A URL asked for before is overtaken: the address names no file.
    const p = new URLSearchParams(location.search);
    if (p.has("url")) {
      p.delete("url");
      const q = p.toString();
      history.replaceState(null, "", location.pathname + (q ? "?" + q : ""));
    }
    status("Opening " + file.name + " as soon as tensorview has started…");
  };
  const queueURL = (addr) => {
    queued = null;
    history.pushState(null, "", location.pathname + "?" + new URLSearchParams({ url: addr }).toString());
    status("Opening " + addr + " as soon as tensorview has started…");
  };

  // take keeps a file for the app, or hands it to the app once it has
  // taken over.
  const take = (file) => {
    if (live) queueFile(file);
    else if (handOff) handOff(file);
  };
  // picked takes the file of a change of a file input.
  const picked = (t) => {
    if (!t.matches || !t.matches(fileInput) || !t.files || t.files.length === 0) return;
    const file = t.files[0];
    t.value = ""; // picking the same file again fires change again
    take(file);
  };
  // Events of a node in the document reach the document's listeners
  // (while this script has the page, then go-app's). go-app's start takes
  // the server-rendered page out of the document and mounts nodes of its
  // own; an event the browser still sends to an old node reaches only the
  // listeners of that node and its old ancestors: the change of a file
  // chooser opened from the old input, or the drop of a drag whose last
  // dragover the old page answered (the browser drops on the node that
  // took the last dragover). So each child of <body> gets listeners as the
  // parser inserts it (a mutation observer's callback runs before any
  // other task, so before the wasm can start), which take the events of
  // its subtree once it is out of the document.
  const fileInput = "input[data-role=file-input]";
  const watch = (root) => {
    const gone = () => !root.isConnected; // else the document's listeners have it
    root.addEventListener("change", (e) => { if (gone()) picked(e.target); }, true);
    for (const type of ["dragenter", "dragover"]) {
      root.addEventListener(type, (e) => { if (gone()) e.preventDefault(); }, true);
    }
    root.addEventListener("drop", (e) => {
      if (!gone()) return;
      e.preventDefault();
      const files = e.dataTransfer && e.dataTransfer.files;
      if (files && files.length > 0) take(files[0]);
    }, true);
  };
  const parsed = new MutationObserver((records) => {
    for (const r of records) {
      if (r.target !== document.body) continue;
      for (const n of r.addedNodes) if (n.nodeType === Node.ELEMENT_NODE) watch(n);
    }
  });
  parsed.observe(document, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", () => parsed.disconnect());
  listen("change", (e) => picked(e.target));

  const over = (on) => {
    const zone = document.querySelector(".start .dropzone");
    if (zone) zone.classList.toggle("over", on);
  };
  for (const type of ["dragenter", "dragover"]) {
    listen(type, (e) => {
      if (!live) return;
      e.preventDefault(); // lets the page take the drop
      over(true);
    });
  }
  listen("dragleave", (e) => {
    if (live && !e.relatedTarget) over(false);
  });
  listen("drop", (e) => {
    if (!live) return;
    e.preventDefault();
    over(false);
    const files = e.dataTransfer && e.dataTransfer.files;
    if (files && files.length > 0) queueFile(files[0]);
  });
  listen("click", (e) => {
    if (!live || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest && e.target.closest("a[data-sample]");
    if (!a) return;
    e.preventDefault();
    queueURL(new URLSearchParams(new URL(a.href).search).get("url"));
  });
  // A click split by go-app's start: a sample link pressed on the
  // server-rendered page and released on go-app's (the wasm started in
  // between) gets no click from the browser, its pressed link being out of
  // the document. The sample's link under the release is clicked then,
  // once the release's own task is over without a click.
  let pressed = null; // {sample, link}
  document.addEventListener("mousedown", (e) => {
    const a = e.button === 0 && e.target.closest ? e.target.closest("a[data-sample]") : null;
    pressed = a ? { sample: a.dataset.sample, link: a } : null;
  }, true);
  document.addEventListener("click", () => { pressed = null; }, true);
  document.addEventListener("mouseup", (e) => {
    const p = pressed;
    if (!p || p.link.isConnected || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    setTimeout(() => {
      if (pressed !== p) return; // the browser clicked after all
      pressed = null;
      const at = document.elementFromPoint(e.clientX, e.clientY);
      const a = at && at.closest("a[data-sample]");
      if (a && a.dataset.sample === p.sample) a.click();
    }, 0);
  }, true);
  listen("submit", (e) => {
    const form = e.target;
    if (!live || !form.matches || !form.matches("form[data-role=url-form]")) return;
    e.preventDefault();
    const input = form.querySelector("input[data-role=url-input]");
    const addr = input ? input.value.trim() : "";
    if (addr !== "") queueURL(addr);
  });
})();

// The wasm in brotli. go-app's loader (app.js) fetches web/app.wasm; a host
// such as GitHub Pages sends it gzip-encoded (4.0 MB), though the build
// writes a brotli copy beside it (web/app.wasm.br, 2.8 MB). On a visit the
// service worker does not control (a first one), this script answers that
// fetch itself: it fetches web/app.wasm.br and decodes it as it comes
// with brotli-dec-wasm (web/vendor/brotli_dec_wasm.js, a 0.1 MB
// WebAssembly brotli decoder, loaded meanwhile), so the wasm compiles as
// it streams in (go-app's WebAssembly.instantiateStreaming), and puts the
// decoded wasm in the service worker's cache for this version (app-VERSION,
// where go-app's worker looks for it; its install leaves the wasm to the
// page, app/site/worker.go). Anything amiss before the first decoded bytes
// (no brotli copy, the decoder not loading, no decoding) falls back to
// go-app's own fetch of web/app.wasm; a copy the server already decoded
// (it starts with the wasm magic) is passed on as it is. A page the
// service worker controls fetches as before (the worker answers from its
// cache). The root element's data-wasm-load says which way it came:
// "brotli" (decoding here), then "cached" (whole, in the cache), "cache"
// (the service worker's), "fetched" (web/app.wasm, go-app's way),
// "decoded by the server".
(() => {
  "use strict";
  const origFetch = window.fetch;
  if (typeof origFetch !== "function" || typeof ReadableStream !== "function") return;
  const state = (s) => document.documentElement.setAttribute("data-wasm-load", s);
  window.fetch = function (input, init) {
    if (typeof input !== "string" || !/\/web\/app\.wasm$/.test(input)) return origFetch.apply(this, arguments);
    window.fetch = origFetch; // once: the app's own fetches are its own
    const plain = (how) => {
      state(how);
      return origFetch(input, init);
    };
    return brotliWasm(new URL(input, location.href)).then((r) => (typeof r === "string" ? plain(r) : r), (err) => {
      console.warn("tensorview: the wasm's brotli copy was not used:", err);
      return plain("fetched");
    });
  };

  // openCache opens the service worker's cache of this version (where its
  // install and fetch handler look), or gives undefined without one: no
  // version, no Cache API, storage refused (a private window, a sandboxed
  // frame), or no answer within 2 s.
  const openCache = () => {
    const version = typeof goappEnv === "object" && goappEnv ? goappEnv.GOAPP_VERSION : "";
    if (!version || typeof caches !== "object" || !caches) return Promise.resolve(undefined);
    const none = new Promise((resolve) => setTimeout(() => resolve(undefined), 2000));
    return Promise.race([caches.open("app-" + version).catch(() => undefined), none]);
  };

  // brotliWasm returns a promise of the Response of the wasm at url,
  // decoded from url.br, or of how to fetch it instead: "cache" when the
  // service worker controls the page (it answers from its cache, else
  // fetches and keeps it), "fetched" when the server has no copy (404:
  // `make run`'s server, a host given only the wasm).
  async function brotliWasm(url) {
    if (navigator.serviceWorker && navigator.serviceWorker.controller) return "cache";
    const copy = origFetch(url.href + ".br"); // at once: the wasm is the page's longest download
    const cache = openCache();
    const decoder = import(new URL("vendor/brotli_dec_wasm.js", url).href).then(async (m) => {
      await m.default({ module_or_path: new URL("vendor/brotli_dec_wasm_bg.wasm", url) });
      return m;
    });
    decoder.catch(() => {}); // awaited below, or the copy is not brotli
    const r = await copy;
    if (r.status === 404) return "fetched";
    if (!r.ok || !r.body) throw new Error(`HTTP ${r.status} for ${url.pathname}.br`);
    const reader = r.body.getReader();
    const headers = { "Content-Type": "application/wasm" };
    let first;
    try {
      first = await reader.read();
      if (first.done) throw new Error(`${url.pathname}.br is empty`);
      const head = first.value;
      if (head.length >= 4 && head[0] === 0 && head[1] === 0x61 && head[2] === 0x73 && head[3] === 0x6d) {
        // The server decoded it (Content-Encoding: br): the wasm as it came.
        state("decoded by the server");
        return new Response(new ReadableStream({
          async pull(c) {
            const { done, value } = first || (await reader.read());
            first = null;
            if (done) c.close();
            else c.enqueue(value);
          },
          cancel: (why) => reader.cancel(why),
        }), { headers });
      }
      return decoded(url, reader, head, await decoder, await cache, headers);
    } catch (err) {
      reader.cancel().catch(() => {});
      throw err;
    }
  }

  // decoded returns the Response of the wasm that reader's brotli stream
  // holds (head: its first chunk, which decodes here: a copy that is not
  // brotli falls back), decoded as it comes by m (brotli-dec-wasm), and
  // puts it in cache once whole (a stream cut short or undecodable puts
  // nothing).
  function decoded(url, reader, head, m, cache, headers) {
    const codes = m.BrotliStreamResultCode;
    const dec = new m.BrotliDecStream();
    let ended = false;
    // decode gives the decoder a chunk of the copy and what it decodes to
    // enqueue, all of it: a call gives at most OUT bytes, and may say it
    // needs more input while it holds more output (it has taken the whole
    // chunk in), so a full buffer is always followed by another call.
    const OUT = 1 << 20;
    const decode = (input, enqueue) => {
      for (;;) {
        const res = dec.dec(input, OUT);
        const buf = res.buf;
        if (buf.length > 0) enqueue(buf);
        input = input.subarray(res.input_offset);
        const code = res.code;
        res.free();
        if (code === codes.ResultSuccess) {
          ended = true;
          return;
        }
        if (code !== codes.NeedsMoreOutput && buf.length < OUT) return;
      }
    };
    const pending = [];
    decode(head, (b) => pending.push(b));
    state("brotli");
    let body = new ReadableStream({
      async pull(c) {
        while (pending.length > 0) c.enqueue(pending.shift());
        if (ended) {
          c.close();
          dec.free();
          return;
        }
        const { done, value } = await reader.read();
        if (done) {
          c.error(new Error(`${url.pathname}.br ended before its brotli stream did`));
          return;
        }
        try {
          decode(value, (b) => c.enqueue(b));
        } catch (err) {
          c.error(new Error(`${url.pathname}.br: ${err?.message ?? err}`));
          reader.cancel().catch(() => {});
        }
      },
      cancel: (why) => reader.cancel(why),
    });
    if (cache) {
      const [a, b] = body.tee();
      body = a;
      cache.put(url.href, new Response(b, { headers })).then(
        () => state("cached"),
        (err) => console.warn("tensorview: caching the wasm failed:", err),
      );
    }
    return new Response(body, { headers });
  }
})();
