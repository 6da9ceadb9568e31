//go:build !wasm

// Command boot measures how long the tensorview page takes to start, for two
// static builds side by side in one run (`make bench-boot` builds today's
// main and the working tree and runs it). It is not part of `make test`.
//
// Each build is served by this process on its own 127.0.0.1 port (so each
// has its own origin: its own HTTP cache and service worker) under the same
// base path, the way GitHub Pages serves it: precompressed gzip copies when
// the browser accepts them and `Cache-Control: max-age=600`. For each of N
// rounds, alternating the builds (A B, then B A, …), a headless Chromium with
// a fresh profile opens the page and measures, in milliseconds from the
// navigation's start (performance.now()):
//
//   - cold: the first load, nothing cached;
//   - warm 1, warm 2, …: loads of the same address in the same browser once
//     the service worker has cached the app (go-app's app-worker.js
//     cache.addAll) and the HTTP cache holds it.
//
// For each load it records the two figures compared: the first frame
// painted with the viewer's root at data-state="empty" (the first usable
// paint: the server-rendered page when it is the empty page, as since
// web/boot.js, else the wasm's render) and when the app is ready (the root
// has data-ready="true", or, for older builds without that attribute,
// data-state="empty"); and beside them when data-state="empty" was first in
// the DOM, the first contentful paint (the server-rendered page),
// when the wasm's fetch ended (resource timing responseEnd) and when
// WebAssembly.instantiateStreaming (or instantiate) resolved. Medians and
// ranges are printed side by side as a Markdown table, and every load is
// written as JSON with -json.
//
//	go run ./bench/boot -a DIST_A -b DIST_B [-names main,branch] [-n 5] [-warm 2]
//	    [-base /tensorview] [-encoding gzip|br|identity] [-json out.json] [-trace DIR]
//
// With -trace DIR, one more round of each build is run whose cold load and
// last warm load are recorded as Chrome traces (DIR/<name>.cold.json,
// DIR/<name>.warmN.json; for the Performance panel of DevTools or
// ui.perfetto.dev).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tensorview/tensorview/internal/pagesserve"
)

// build is one static site under test.
type build struct {
	name, dist string
	url        string // the page's address once served
}

type config struct {
	builds   [2]*build
	rounds   int
	warm     int
	base     string
	encoding string
	timeout  time.Duration
	jsonOut  string
	traceDir string
}

func main() {
	var c config
	a := flag.String("a", "", "static build A (make static's DIST), e.g. of main")
	b := flag.String("b", "", "static build B, e.g. of the working tree")
	names := flag.String("names", "A,B", "the two builds' names in the table, comma separated")
	flag.IntVar(&c.rounds, "n", 5, "rounds: cold loads of each build (each then warm loads)")
	flag.IntVar(&c.warm, "warm", 2, "warm loads after each cold load")
	flag.StringVar(&c.base, "base", "/tensorview", "the URL path both builds were built for (make static BASE=)")
	flag.StringVar(&c.encoding, "encoding", "gzip", "serve the precompressed copies: gzip (as GitHub Pages), br, or identity")
	flag.DurationVar(&c.timeout, "timeout", 60*time.Second, "limit of one load")
	flag.StringVar(&c.jsonOut, "json", "", "write every load's figures to this file")
	flag.StringVar(&c.traceDir, "trace", "", "record the cold and last warm load of one more round of each build as Chrome traces in this directory")
	flag.Parse()
	n := strings.Split(*names, ",")
	if *a == "" || *b == "" || len(n) != 2 || c.rounds < 1 || c.warm < 0 {
		fmt.Fprintln(os.Stderr, "usage: boot -a DIST_A -b DIST_B [-names A,B] [-n rounds] [-warm loads] [-base /tensorview] [-encoding gzip|br|identity] [-json FILE] [-trace DIR]")
		os.Exit(2)
	}
	switch c.encoding {
	case "gzip", "br", "identity":
	default:
		fmt.Fprintf(os.Stderr, "boot: -encoding %q: want gzip, br or identity\n", c.encoding)
		os.Exit(2)
	}
	c.base = "/" + strings.Trim(c.base, "/")
	c.builds = [2]*build{{name: n[0], dist: *a}, {name: n[1], dist: *b}}
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "boot:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	for _, b := range c.builds {
		if _, err := os.Stat(filepath.Join(b.dist, "web", "app.wasm")); err != nil {
			return fmt.Errorf("build %s: no static build in %s (make static): %w", b.name, b.dist, err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		defer ln.Close()
		mux := http.NewServeMux()
		mux.Handle(c.base+"/", http.StripPrefix(c.base, pagesserve.Handler(b.dist, c.encoding)))
		srv := &http.Server{Handler: mux}
		go srv.Serve(ln)
		defer srv.Close()
		b.url = fmt.Sprintf("http://%s%s/", ln.Addr(), c.base)
		fmt.Fprintf(os.Stderr, "boot: %s (%s) at %s\n", b.name, b.dist, b.url)
	}

	var loads []load
	for round := range c.rounds {
		order := []int{0, 1}
		if round%2 == 1 {
			order = []int{1, 0}
		}
		for _, i := range order {
			b := c.builds[i]
			got, err := measure(b.url, c.warm, c.timeout, "")
			for k := range got {
				got[k].Build, got[k].Round = b.name, round+1
				loads = append(loads, got[k])
				fmt.Fprintf(os.Stderr, "boot: round %d %-8s %-6s empty painted %7.0f ms  ready %7.0f  fcp %6.0f  wasm fetched %6.0f  instantiated %6.0f\n",
					round+1, b.name, got[k].Kind, got[k].Painted, got[k].Ready, got[k].FCP, got[k].WasmEnd, got[k].Instantiated)
			}
			if err != nil {
				return fmt.Errorf("round %d, %s: %w", round+1, b.name, err)
			}
		}
	}
	if c.traceDir != "" {
		if err := os.MkdirAll(c.traceDir, 0o755); err != nil {
			return err
		}
		for _, b := range c.builds {
			prefix := filepath.Join(c.traceDir, b.name)
			if _, err := measure(b.url, c.warm, c.timeout, prefix); err != nil {
				return fmt.Errorf("trace of %s: %w", b.name, err)
			}
			fmt.Fprintf(os.Stderr, "boot: traces of %s in %s.*.json\n", b.name, prefix)
		}
	}
	if c.jsonOut != "" {
		data, err := json.MarshalIndent(loads, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(c.jsonOut, data, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("\nBoot of %s (A) and %s (B): navigation start to the first paint of data-state=\"empty\" and to the app ready, %d rounds alternating A and B, served as %s on 127.0.0.1; median (min–max), ms\n\n",
		c.builds[0].name, c.builds[1].name, c.rounds, c.encoding)
	printTable(os.Stdout, c, loads)
	return nil
}
