//go:build !wasm

package site

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/andybalholm/brotli"
)

// This file precompresses the static site for servers that send
// precompressed files as they are (nginx gzip_static / brotli_static,
// Caddy's precompressed): gzip level 9 (compress/gzip) and brotli
// (github.com/andybalholm/brotli, RFC 7932) with a 16 MiB window. Brotli
// quality 11 takes about 50 s for a 23 MB wasm on one core; quality 9
// about 2 s for a copy 14% bigger. Native only: brotli is never linked into
// the wasm.

// compressible are the extensions worth precompressing.
var compressible = map[string]bool{
	".wasm": true, ".js": true, ".mjs": true, ".css": true, ".html": true, ".json": true,
	".webmanifest": true, ".svg": true, ".txt": true, ".map": true,
	".zip": true, // web/tzdata.zip: Go's zone database, its files stored
}

// minCompressSize is the size in bytes under which a file is served as it is.
const minCompressSize = 1024

// Gzip returns data compressed with gzip at level 9.
func Gzip(data []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	return buf.Bytes()
}

// Brotli returns data compressed with brotli at quality (0 to 11) with a
// 16 MiB window (lgwin 24).
func Brotli(data []byte, quality int) []byte {
	var buf bytes.Buffer
	bw := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: quality, LGWin: 24})
	bw.Write(data)
	bw.Close()
	return buf.Bytes()
}

// Precompress writes PATH.gz and PATH.br beside every compressible file of
// dir of at least 1 KiB (extensions in compressible), with brotli at quality
// (0 to 11), on all CPUs. A copy that is not smaller than its file is not
// written; copies keep their file's mtime. With log non-nil it lists the
// copies written (bytes, share of the raw size, time).
func Precompress(dir string, quality int, log io.Writer) error {
	files, err := compressibleFiles(dir)
	if err != nil {
		return err
	}
	jobs := make(chan compressJob)
	errs := make(chan error, 2*len(files))
	var mu sync.Mutex
	var lines []string
	var wg sync.WaitGroup
	for range max(1, runtime.NumCPU()) {
		wg.Go(func() {
			for j := range jobs {
				line, err := j.run()
				if err != nil {
					errs <- err
					continue
				}
				if line == "" {
					continue
				}
				mu.Lock()
				lines = append(lines, line)
				mu.Unlock()
			}
		})
	}
	br := func(data []byte) []byte { return Brotli(data, quality) }
	for _, f := range files {
		jobs <- compressJob{f, ".br", br}
		jobs <- compressJob{f, ".gz", Gzip}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	if log != nil {
		writeCompressLog(log, lines)
	}
	return nil
}

// compressibleFiles lists the files under dir of at least 1 KiB with an
// extension in compressible, biggest first: the wasm's brotli takes
// longest.
func compressibleFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if info, err := d.Info(); err == nil && info.Size() >= minCompressSize && compressible[strings.ToLower(filepath.Ext(path))] {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sizes := map[string]int64{}
	for _, f := range files {
		if info, err := os.Stat(f); err == nil {
			sizes[f] = info.Size()
		}
	}
	sort.Slice(files, func(i, j int) bool { return sizes[files[i]] > sizes[files[j]] })
	return files, nil
}

// compressJob is one copy Precompress writes: path+ext, encoded by enc.
type compressJob struct {
	path, ext string
	enc       func([]byte) []byte
}

// run writes the copy with its file's mtime and returns its log line
// (path, bytes, share of the raw size, time), or "" when the copy would not
// be smaller than the file and is not written.
func (j compressJob) run() (string, error) {
	start := time.Now()
	info, err := os.Stat(j.path)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(j.path)
	if err != nil {
		return "", err
	}
	out := j.enc(data)
	if len(out) >= len(data) {
		return "", nil
	}
	if err := os.WriteFile(j.path+j.ext, out, 0o644); err != nil {
		return "", err
	}
	_ = os.Chtimes(j.path+j.ext, info.ModTime(), info.ModTime())
	return fmt.Sprintf("%s%s\t%d\t%.1f%%\t%v", j.path, j.ext, len(out), 100*float64(len(out))/float64(len(data)), time.Since(start).Round(10*time.Millisecond)), nil
}

// writeCompressLog writes Precompress's log lines to log, sorted, as a
// right-aligned table.
func writeCompressLog(log io.Writer, lines []string) {
	sort.Strings(lines)
	tw := tabwriter.NewWriter(log, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "precompressed\tbytes\tof raw\ttime\t")
	for _, l := range lines {
		fmt.Fprintln(tw, l+"\t")
	}
	tw.Flush()
}
