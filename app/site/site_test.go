//go:build !wasm

package site

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

type testPage struct{ app.Compo }

func (p *testPage) Render() app.UI {
	return app.Div().Class("viewer").Body(app.P().Text("hello"))
}

// TestPageCSP: the page the handler serves (as `make run` does, and as
// `make static` writes it) carries the policy in a <meta> in its <head>,
// and nothing the policy would refuse: no inline script (else it needs a
// sha256 source here), no <style> element, no style or on* attribute, no
// script from elsewhere.
func TestPageCSP(t *testing.T) {
	app.Route("/", func() app.Composer { return &testPage{} })
	for _, base := range []string{"", "/tensorview"} {
		srv := httptest.NewServer(NewHandler(base, "../../web"))
		resp, err := http.Get(srv.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		page := string(body)

		head, _, ok := strings.Cut(page, "</head>")
		if !ok || !strings.Contains(head, cspMeta()) {
			t.Errorf("base %q: no CSP <meta> in <head>:\n%s", base, page)
		}
		for _, tag := range regexp.MustCompile(`(?s)<[a-zA-Z][^>]*>`).FindAllString(page, -1) {
			name := strings.ToLower(regexp.MustCompile(`^<([a-zA-Z0-9]+)`).FindStringSubmatch(tag)[1])
			switch {
			case name == "script" && !regexp.MustCompile(`\ssrc="`+base+`/[^/]`).MatchString(tag):
				t.Errorf("base %q: a script the policy refuses (inline: add a sha256 source to ContentSecurityPolicy): %s", base, tag)
			case name == "style":
				t.Errorf("base %q: a <style> element: %s", base, tag)
			case regexp.MustCompile(`(?i)\s(style|on[a-z]+)=`).MatchString(tag):
				t.Errorf("base %q: an inline style or handler: %s", base, tag)
			}
		}
	}
}

// TestPolicyText: the policy fits in a double-quoted attribute as it is, and
// holds the directives the app relies on.
func TestPolicyText(t *testing.T) {
	if strings.ContainsAny(ContentSecurityPolicy, "\"<>&") {
		t.Errorf("the policy needs escaping in an attribute: %s", ContentSecurityPolicy)
	}
	directives := map[string]string{}
	for _, d := range strings.Split(ContentSecurityPolicy, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		if _, dup := directives[name]; dup {
			t.Errorf("directive %s twice", name)
		}
		directives[name] = value
	}
	for name, want := range map[string]string{
		"script-src":  "'self' 'wasm-unsafe-eval'",
		"worker-src":  "'self'",
		"object-src":  "'none'",
		"base-uri":    "'self'",
		"form-action": "'none'",
	} {
		if directives[name] != want {
			t.Errorf("%s %q, want %q", name, directives[name], want)
		}
	}
	if strings.Contains(directives["script-src"], "unsafe-inline") || strings.Contains(directives["style-src"], "unsafe-inline") {
		t.Errorf("'unsafe-inline' beyond style attributes: %s", ContentSecurityPolicy)
	}
}

// TestPrecompress: compressible files of 1 KiB or more get .gz and .br
// copies that decompress to the file; small files, other types and copies
// that would not be smaller get none.
func TestPrecompress(t *testing.T) {
	dir := t.TempDir()
	text := bytes.Repeat([]byte("tensorview reads arrow.fixed_shape_tensor columns. "), 100)
	noise := make([]byte, 4096) // incompressible
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	files := map[string][]byte{
		"app.js":        text,
		"sub/style.css": text[:2000],
		"tiny.css":      text[:500],
		"icon.png":      text,
		"noise.wasm":    noise,
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	if err := Precompress(dir, 5, &log); err != nil {
		t.Fatal(err)
	}
	var got []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if ext := filepath.Ext(path); ext == ".gz" || ext == ".br" {
			rel, _ := filepath.Rel(dir, path)
			got = append(got, rel)
			raw, _ := os.ReadFile(path)
			var r io.Reader = brotli.NewReader(bytes.NewReader(raw))
			if ext == ".gz" {
				if r, err = gzip.NewReader(bytes.NewReader(raw)); err != nil {
					t.Fatal(err)
				}
			}
			out, err := io.ReadAll(r)
			if orig := files[strings.TrimSuffix(rel, ext)]; err != nil || !bytes.Equal(out, orig) {
				t.Errorf("%s decompresses to %d bytes (%v), want the %d of the file", rel, len(out), err, len(orig))
			}
		}
		return nil
	})
	want := []string{"app.js.br", "app.js.gz", "sub/style.css.br", "sub/style.css.gz"}
	if !slices.Equal(got, want) {
		t.Errorf("copies %v, want %v", got, want)
	}
	if !strings.Contains(log.String(), "app.js.br") {
		t.Errorf("log does not list the copies:\n%s", log.String())
	}
}

// TestServiceWorkerOnDemand: the service worker the handler serves keeps
// the Parquet reader, the zone database and the wasm in its cache once
// fetched (onDemandFetch, with the paths under the base), does not fetch
// the first two at install (they are not in resourcesToCache), and the wasm
// only at an update's install (installWasm).
func TestServiceWorkerOnDemand(t *testing.T) {
	for _, base := range []string{"", "/tensorview"} {
		srv := httptest.NewServer(NewHandler(base, "../../web"))
		resp, err := http.Get(srv.URL + "/app-worker.js") // the handler serves the site at its root
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		srv.Close()
		js := string(body)
		var paths []string
		for _, p := range []string{"/web/parquet-worker.js", "/web/parquet/engine/parquet-engine.js",
			"/web/parquet/engine/gzip.js", "/web/parquet/engine/chunk.js", "/web/parquet/engine/brotli.js",
			"/web/parquet/engine/lz4.js", "/web/parquet/engine/esm.js",
			"/web/parquet/parquet_wasm.js", "/web/parquet/parquet_wasm_bg.wasm",
			"/web/parquet/hyparquet/metadata.js", "/web/parquet/hyparquet/constants.js", "/web/parquet/hyparquet/convert.js",
			"/web/parquet/hyparquet/schema.js", "/web/parquet/hyparquet/thrift.js", "/web/parquet/hyparquet/geoparquet.js",
			"/web/parquet/hyparquet/wkb.js", "/web/tzdata.zip", "/web/app.wasm"} {
			paths = append(paths, `"`+base+p+`"`)
		}
		want := `const onDemand = new Set([` + strings.Join(paths, ",") + `]);`
		if !strings.Contains(js, want) || !strings.Contains(js, "await cache.put(request, response.clone());") {
			t.Errorf("base %q: app-worker.js does not cache the on-demand files (go-app's template changed?); want %s in:\n%s", base, want, js)
		}
		if strings.Contains(js, `addEventListener("install", async`) || strings.Contains(js, `addEventListener("activate", async`) ||
			strings.Count(js, "})());\n});") < 2 {
			t.Errorf("base %q: app-worker.js's install and activate handlers are not kept alive by event.waitUntil (go-app's template changed?):\n%s", base, js)
		}
		if !strings.Contains(js, `resourcesToCache.filter((r) => r !== "`+base+`/web/app.wasm")`) {
			t.Errorf("base %q: app-worker.js's first install does not leave the wasm to the page (go-app's template changed?):\n%s", base, js)
		}
		install := regexp.MustCompile(`const resourcesToCache = (\[.*\]);`).FindStringSubmatch(js)
		if install == nil || !strings.Contains(install[1], base+"/web/app.wasm") || strings.Contains(install[1], "parquet") || strings.Contains(install[1], "tzdata") {
			t.Errorf("base %q: the install list should hold app.wasm and not the Parquet reader or the zone database: %v", base, install)
		}
	}
}
