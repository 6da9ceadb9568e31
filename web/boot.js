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
//   - a link to a dataset's listing (?hf=, the Hub's list of its Parquet
//     files; ?urls=, a list of links) fetches it while the wasm downloads
//     and starts: the same plain GET the app makes first, handed to it by
//     prefetched(url) (app/browser's Fetcher asks). Only an address the
//     app builds the same way is fetched; when the app first asks for
//     another, this one is aborted.
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
  let prefetch = null; // {url, response: Promise<Response>, abort: AbortController}
  window.tensorviewBoot = {
    // prefetched hands the app what was fetched for url while it started
    // ({response, abort}), once; asked for another address first, it
    // aborts that fetch and returns null.
    prefetched(url) {
      const p = prefetch;
      prefetch = null;
      if (!p) return null;
      if (p.url === url) return { response: p.response, abort: p.abort };
      p.abort.abort();
      return null;
    },
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
    const addr = listingURL(params);
    if (addr !== null && typeof fetch === "function") {
      const abort = new AbortController();
      const response = fetch(addr, { signal: abort.signal });
      response.catch(() => {}); // the app sees a failure when it takes it
      prefetch = { url: addr, response, abort };
    }
    document.addEventListener("DOMContentLoaded", () => {
      const v = viewer();
      if (v && v.getAttribute("data-ready") !== "true") v.setAttribute("data-state", "loading");
    });
    return;
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
  listen("submit", (e) => {
    const form = e.target;
    if (!live || !form.matches || !form.matches("form[data-role=url-form]")) return;
    e.preventDefault();
    const input = form.querySelector("input[data-role=url-input]");
    const addr = input ? input.value.trim() : "";
    if (addr !== "") queueURL(addr);
  });
})();
