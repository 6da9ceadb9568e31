//go:build !wasm

package site

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Run executes the command line: "serve [-addr host:port]" or
// "static [-dir dist] [-base /path]".
func Run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: tensorview serve|static [flags]")
	}
	switch args[0] {
	case "serve":
		fl := flag.NewFlagSet("serve", flag.ExitOnError)
		addr := fl.String("addr", "127.0.0.1:8080", "address to listen on")
		_ = fl.Parse(args[1:])
		h := NewHandler("", "web")
		log.Printf("tensorview: serving http://%s", *addr)
		return http.ListenAndServe(*addr, h)
	case "static":
		fl := flag.NewFlagSet("static", flag.ExitOnError)
		dir := fl.String("dir", "dist", "directory to write the site to")
		base := fl.String("base", "", "URL path the site is served under, e.g. /tensorview for GitHub Pages")
		quality := fl.Int("brotli", 11, "brotli quality of the precompressed copies, 0 to 11; -1 writes none")
		quiet := fl.Bool("q", false, "do not list the precompressed copies")
		_ = fl.Parse(args[1:])
		if err := writeStatic(*dir, *base, "web"); err != nil || *quality < 0 {
			return err
		}
		var log io.Writer = os.Stdout
		if *quiet {
			log = nil
		}
		return Precompress(*dir, *quality, log)
	}
	return fmt.Errorf("unknown command %q: want serve or static", args[0])
}

// NewHandler returns the go-app handler of the page. base is the URL path
// prefix the site is served under ("" for the root); web is the directory of
// the static resources, whose content fixes the version so browsers drop a
// stale cached build.
func NewHandler(base, web string) *app.Handler {
	h := &app.Handler{
		Name:        "tensorview",
		ShortName:   "tensorview",
		Title:       "tensorview: look at the tensors in Arrow files",
		Description: "Drop an Apache Arrow file and see its schema, rows and tensors (arrow.fixed_shape_tensor, arrow.variable_shape_tensor) with image previews. Runs entirely in your browser.",
		Icon:        app.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", SVG: "/web/icon.svg"},
		Styles:      []string{"/web/style.css"},
		// A plain (blocking) script in <head>: it is tiny, fetched beside
		// the styles, and runs before the first paint, so the remembered
		// theme and a link's loader show from the start. It takes what is
		// asked of the page before the wasm has started (see web/boot.js).
		Scripts:         []string{"/web/boot.js"},
		BackgroundColor: "#ffffff",
		ThemeColor:      "#1f4e79",
		LoadingLabel:    "Loading tensorview… {progress}%",
		Version:         version(web),
		RawHeaders:      []string{cspMeta()},
	}
	// The wasm's size, for go-app's loading progress: the response's
	// Content-Length is the encoded size (gzip, or web/boot.js's brotli
	// copy decoded in the page, none).
	if st, err := os.Stat(filepath.Join(web, "app.wasm")); err == nil {
		h.WasmContentLength = strconv.FormatInt(st.Size(), 10)
	}
	base = strings.TrimRight(base, "/")
	if base != "" {
		h.Resources = app.PrefixedLocation(base)
	}
	h.ServiceWorkerTemplate = serviceWorker(base)
	return h
}

// version hashes the files of the web directory.
func version(web string) string {
	sum := sha256.New()
	err := filepath.WalkDir(web, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		io.WriteString(sum, path)
		_, err = io.Copy(sum, f)
		return err
	})
	if err != nil {
		return "dev"
	}
	return hex.EncodeToString(sum.Sum(nil))[:16]
}

// writeStatic writes the site to dir: the pages go-app generates plus a copy
// of the web directory (the wasm, styles, icons and samples).
func writeStatic(dir, base, web string) error {
	if _, err := os.Stat(filepath.Join(web, "app.wasm")); err != nil {
		return fmt.Errorf("build the wasm first (make static does): %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := app.GenerateStaticWebsite(dir, NewHandler(base, web)); err != nil {
		return err
	}
	return copyDir(web, filepath.Join(dir, "web"))
}

func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}
