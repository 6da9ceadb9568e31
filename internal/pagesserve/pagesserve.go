//go:build !wasm

// Package pagesserve serves a static build (make static) for the
// benchmarks as GitHub Pages does: the precompressed copies make static
// writes beside each file, when the request accepts their encoding.
package pagesserve

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Handler serves a static build from dist as GitHub Pages does, with
// the precompressed copy make static wrote beside each file (name.gz for
// encoding "gzip", name.br for "br") when the request accepts that encoding,
// `Vary: Accept-Encoding` and `Cache-Control: max-age=600`. A directory is
// served as its index.html. Files without a copy, or with encoding
// "identity", are served as they are (with Range support).
func Handler(dist, encoding string) http.Handler {
	files := http.FileServer(http.Dir(dist))
	ext := map[string]string{"gzip": ".gz", "br": ".br"}[encoding]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=600")
		w.Header().Add("Vary", "Accept-Encoding")
		name := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(r.URL.Path, "/") {
			name = path.Join(name, "index.html")
		}
		if ext == "" || !AcceptsEncoding(r.Header.Get("Accept-Encoding"), encoding) {
			files.ServeHTTP(w, r)
			return
		}
		f, err := os.Open(filepath.Join(dist, filepath.FromSlash(name)+ext))
		if err != nil {
			files.ServeHTTP(w, r)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || st.IsDir() {
			files.ServeHTTP(w, r)
			return
		}
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Encoding", encoding)
		http.ServeContent(w, r, name, st.ModTime(), f)
	})
}

// AcceptsEncoding reports whether an Accept-Encoding header names enc
// (without q=0).
func AcceptsEncoding(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), enc) {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}
