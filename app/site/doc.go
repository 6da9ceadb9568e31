// Package site serves the tensorview app and writes it as a static site. It
// is native-only: the wasm build links a stub (site_wasm.go), which keeps
// net/http's server, httptest and the site writer out of the browser's
// download.
//
// Entry points: Run (the tensorview command: serve, static), NewHandler
// (the go-app handler for a base path), Precompress, Gzip and Brotli (the
// static site's precompressed copies), ContentSecurityPolicy, OnDemand
// (the files the service worker fetches when asked, not at install).
package site
