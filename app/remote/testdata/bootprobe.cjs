// Runs web/boot.js (argv[2]) once per page address read from stdin (a
// JSON array of strings), with stubs for the browser's globals, and
// prints what it fetched for each: a JSON array of arrays of {url, range}.
// Used by app/remote's TestBootProbeAddress.
const vm = require("vm");
const fs = require("fs");
const src = fs.readFileSync(process.argv[2], "utf8");
const pages = JSON.parse(fs.readFileSync(0, "utf8"));
const out = pages.map((page) => {
  const fetched = [];
  const noop = () => {};
  const ctx = {
    URL,
    URLSearchParams,
    AbortController,
    Promise,
    location: new URL(page),
    localStorage: { getItem: () => null },
    document: { documentElement: { setAttribute: noop }, addEventListener: noop, querySelector: () => null },
    history: {},
    fetch: (url, opts) => {
      fetched.push({ url: String(url), range: opts?.headers?.Range ?? "" });
      return new Promise(noop); // never answers: only the request matters
    },
  };
  ctx.window = ctx;
  vm.runInNewContext(src, ctx);
  return fetched;
});
console.log(JSON.stringify(out));
