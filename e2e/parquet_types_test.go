//go:build !wasm

package e2e

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestParquetEngineTypes opens Parquet files of the types the page's
// Parquet engine reads besides numbers and strings (timestamps of every
// unit and time zone, dates, times, durations, dictionaries, decimals,
// float16, fixed-size binaries; testdata/parquet_conformance_gen.mjs's,
// written by arrow-rs and by hyparquet-writer) and, for each, the same
// rows as parquet-wasm (arrow-rs) reads them, as an Arrow IPC stream
// (testdata/parquet_to_ipc.mjs): the page shows every cell of every row
// the same way, and never fetches parquet-wasm.
func TestParquetEngineTypes(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("node: %v (the files are written by Node.js)", err)
	}
	dir := t.TempDir()
	names := []string{"times.parquet", "dicts.parquet", "decimals.parquet", "types_hyparquet.parquet", "hinted.parquet"}
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = filepath.Join(dir, n)
	}
	for _, args := range [][]string{{"parquet_conformance_gen.mjs", dir}, append([]string{"parquet_to_ipc.mjs"}, paths...)} {
		cmd := exec.Command(node, args...)
		cmd.Dir = filepath.Join("..", "testdata")
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("node %s: %v\n%s", args[0], err, msg)
		}
	}
	log := &requestLog{}
	b := newBrowserServing(t, "", "", log.wrap)
	b.run(chromedp.EmulateViewport(1600, 1000))
	for i, name := range names {
		t.Run(name, func(t *testing.T) {
			b.t = t
			b.upload(paths[i])
			b.waitOpened(name)
			f := b.parquetFacts()
			rows, err := strconv.Atoi(f.Rows)
			if f.Format != "Parquet" || err != nil || rows == 0 {
				t.Fatalf("file facts %+v", f)
			}
			got := make([]map[string]pqCell, rows)
			for r := range rows {
				got[r] = b.pqRow(r)
			}
			b.pqRow(0)
			b.screenshot("parquet-engine-types-" + strings.TrimSuffix(name, ".parquet"))
			ipc := strings.TrimSuffix(name, ".parquet") + ".arrows"
			b.upload(filepath.Join(dir, ipc))
			b.waitOpened(ipc)
			for r := range rows {
				want := b.pqRow(r)
				if len(want) == 0 {
					t.Fatalf("row %d: no cells shown", r)
				}
				if len(got[r]) != len(want) {
					t.Errorf("row %d: %d cells from Parquet, %d from parquet-wasm's IPC", r, len(got[r]), len(want))
				}
				for field, w := range want {
					if g := got[r][field]; !g.equal(w) {
						t.Errorf("row %d %s: the page shows %+v from the Parquet file, %+v from parquet-wasm's reading", r, field, g, w)
					}
				}
			}
		})
	}
	if got := log.matching("parquet_wasm"); len(got) != 0 {
		t.Errorf("the page fetched parquet-wasm (%q): the engine declined a file", got)
	}
}

// equal says whether two cells show the same.
func (c pqCell) equal(o pqCell) bool {
	return c.Found == o.Found && c.Tensor == o.Tensor && c.Null == o.Null && c.Shape == o.Shape && c.Err == o.Err &&
		c.Text == o.Text && strings.Join(c.Summary, "\n") == strings.Join(o.Summary, "\n") && c.ImageFormat == o.ImageFormat
}
