//go:build !wasm

package site

// ContentSecurityPolicy is the page's Content Security Policy, set by a
// <meta http-equiv> element in the page go-app generates (Handler.RawHeaders),
// so that it holds both for `make static` (any static host, GitHub Pages
// included, where no response header can be set) and for `make run`.
//
// What go-app v10.1.11 needs, read in its pkg/app source and checked in
// Chromium by TestContentSecurityPolicy: its page has no inline script, no
// inline <style> and no event handler attribute (scripts are
// <script defer src> of wasm_exec.js and app.js, handlers are added with
// addEventListener from Go), so no hash or nonce is needed; app.js compiles
// app.wasm with WebAssembly.instantiateStreaming ('wasm-unsafe-eval') and
// registers app-worker.js as a service worker; and go-app sets the style
// attribute with setAttribute("style", ...) for every app.Div().Style(...)
// (the windowed rows' heights and offsets, the inspector's zoom and pan, the
// colour bar and histogram), which only style-src-attr 'unsafe-inline'
// allows. Style attributes cannot run script; <style> elements and
// stylesheets from anywhere but the site stay blocked.
//
// A policy in a <meta> element cannot set frame-ancestors, report-uri or
// sandbox (the viewer may be embedded in any page), and go-app puts
// RawHeaders last in <head>: the policy covers everything after it, which is
// everything the wasm does; before it come only go-app's own same-origin
// stylesheet, icon, manifest and script links, which it would allow anyway.
//
// 'self' is the origin: on GitHub Pages (https://<user>.github.io/<repo>/)
// that includes the user's other project sites. A CSP source cannot name a
// path without a host, and the host is not known when the site is built.
const ContentSecurityPolicy = "" +
	// Anything not listed below (fonts, media, frames, child pages, prefetch): nothing.
	"default-src 'none'; " +
	// wasm_exec.js and app.js from the site, and compiling app.wasm. No
	// 'unsafe-inline' and no 'unsafe-eval': inline scripts, javascript: URLs,
	// on* attributes, eval and new Function are refused.
	"script-src 'self' 'wasm-unsafe-eval'; " +
	// app.css and web/style.css from the site; no <style> elements.
	"style-src 'self'; " +
	// go-app's Style(...) sets style attributes (see above).
	"style-src-attr 'unsafe-inline'; " +
	// The icons (the loader's spinner, the favicon). Previews are canvases
	// and downloads are <a download> clicks on blob: URLs, which img-src does
	// not govern, so neither blob: nor data: is needed.
	"img-src 'self'; " +
	// fetch of app.wasm and the samples from the site, and files opened by
	// URL from any web server (the reason this cannot be 'self'): https: for
	// any host, http: for servers on the local machine or network when the
	// site itself is served over http (make run); an https page cannot fetch
	// http: anyway (mixed content). No ws:, data: or blob: fetches.
	"connect-src 'self' https: http:; " +
	// go-app's service worker, app-worker.js.
	"worker-src 'self'; " +
	// manifest.webmanifest.
	"manifest-src 'self'; " +
	// No <object> or <embed> plug-ins.
	"object-src 'none'; " +
	// A <base> element injected into the page cannot redirect relative URLs.
	"base-uri 'self'; " +
	// The page has no form to submit.
	"form-action 'none'"

// cspMeta is the <meta> element that sets ContentSecurityPolicy.
func cspMeta() string {
	return `<meta http-equiv="Content-Security-Policy" content="` + ContentSecurityPolicy + `">`
}
