// Package chromium starts Debian's headless Chromium (through chromedp) the
// same way for the end-to-end tests (package e2e) and the browser
// benchmarks (bench/browser): one set of flags, a fresh profile per
// browser, and a close that cannot hang on a page stuck in wasm.
//
// Entry points: Start (a browser; Browser.Close), Path (the Chromium
// binary), Width (the window's width in CSS pixels).
package chromium
