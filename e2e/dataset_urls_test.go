package e2e

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDatasetURLs: several url parameters open one table of their files,
// in natural order of their names (part-1 before part-2, whatever the
// link's order), each read by HTTP Range: every row's tensors are its
// file's (js_images.arrow twice: rows 3–5 are rows 0–2 again, exactly),
// the row count exact once the second file is open, a row's header names
// its file, the schema panel lists both, and the address keeps the link's
// parameters.
func TestDatasetURLs(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	js := filepath.Join("..", "testdata", "js_images.arrow")
	list := filepath.Join(t.TempDir(), "files.txt") // for urls=, below
	if err := os.WriteFile(list, []byte("# the dataset's files\npart-2.arrow\n\npart-1.arrow\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	host := newFileHost(t, map[string]string{"part-1.arrow": js, "part-2.arrow": js, "files.txt": list})
	want := loadExpected(t)
	b := newBrowser(t)
	first, second := host.url("range", "part-1.arrow"), host.url("range", "part-2.arrow")
	b.run(chromedp.Navigate(b.base + "?url=" + url.QueryEscape(second) + "&url=" + url.QueryEscape(first) + "&schema=1"))
	b.waitOpened("2 files")
	b.waitFor(`document.querySelector('[data-role=num-rows]')?.dataset.exact === 'true'`)
	var rows string
	b.eval(`document.querySelector('[data-role=num-rows]').textContent`, &rows)
	if rows != "6" {
		t.Errorf("rows %q, want 6 (3 + 3)", rows)
	}
	var shards []struct{ Name, Rows, Exact string }
	b.waitFor(`document.querySelectorAll('[data-role=shards] tr[data-shard][data-exact=true]').length === 2`)
	b.eval(`[...document.querySelectorAll('[data-role=shards] tr[data-shard]')].map(e => ({Name: e.dataset.shard, Rows: e.dataset.rows, Exact: e.dataset.exact}))`, &shards)
	if fmt.Sprint(shards) != "[{part-1.arrow 3 true} {part-2.arrow 3 true}]" {
		t.Errorf("shard list %v", shards)
	}
	var heads []string
	b.eval(`[...document.querySelectorAll('[data-row] .row-index')].map(e => e.dataset.shard)`, &heads)
	if strings.Join(heads, " ") != "part-1.arrow part-1.arrow part-1.arrow part-2.arrow part-2.arrow part-2.arrow" {
		t.Errorf("row headers' files %v", heads)
	}
	rgb := b.tensorCells("rgb")
	var wantRGB []tensorCell
	for r := range 6 {
		c := tensorCell{Row: fmt.Sprint(r), Field: "rgb", Shape: "4,3,3", LogicalShape: "4,3,3", DimNames: "H,W,C", LogicalDimNames: "H,W,C", Preview: "rgb"}
		if r%3 == 2 {
			c = tensorCell{Row: fmt.Sprint(r), Field: "rgb", Null: true}
		}
		wantRGB = append(wantRGB, c)
	}
	if !reflect.DeepEqual(rgb, wantRGB) {
		t.Errorf("rgb cells\n got %+v\nwant %+v", rgb, wantRGB)
	}
	for _, row := range []int{0, 1, 3, 4} {
		vals := want.Files["js_images.arrow"].Columns["rgb"].Rows[row%3].Values
		var wantPix []int
		for i := 0; i < len(vals); i += 3 {
			wantPix = append(wantPix, int(vals[i]), int(vals[i+1]), int(vals[i+2]), 255)
		}
		if w, h, pix := b.canvas(row, "rgb"); w != 3 || h != 4 || !reflect.DeepEqual(pix, wantPix) {
			t.Errorf("row %d rgb canvas %dx%d pixels %v, want 3x4 %v", row, w, h, pix, wantPix)
		}
	}
	var search string
	b.eval(`location.search`, &search)
	q, _ := url.ParseQuery(strings.TrimPrefix(search, "?"))
	if !reflect.DeepEqual(q["url"], []string{second, first}) {
		t.Errorf("the address's files %v, want the link's %v", q["url"], []string{second, first})
	}
	b.screenshot("dataset-urls")

	// The file column (the dataset's last) filters like any other.
	b.query("file = 'part-2.arrow'")
	b.waitQuery(`document.querySelector('[data-role=num-rows]').dataset.matches === '3'`)
	var shown []string
	b.eval(`[...document.querySelectorAll('[data-row]')].map(e => e.dataset.row + ':' + e.querySelector('[data-field=file]')?.textContent)`, &shown)
	if strings.Join(shown, " ") != "3:part-2.arrow 4:part-2.arrow 5:part-2.arrow" {
		t.Errorf("rows of file part-2.arrow: %v", shown)
	}

	// The same files by a list of links (urls=): relative to the list,
	// comments and blank lines skipped, in natural order.
	b.run(chromedp.Navigate(b.base + "?urls=" + url.QueryEscape(host.url("range", "files.txt"))))
	b.waitOpened("2 files")
	b.waitFor(`document.querySelector('[data-role=num-rows]')?.dataset.exact === 'true'`)
	b.eval(`[...document.querySelectorAll('[data-row] .row-index')].map(e => e.dataset.shard)`, &heads)
	if strings.Join(heads, " ") != "part-1.arrow part-1.arrow part-1.arrow part-2.arrow part-2.arrow part-2.arrow" {
		t.Errorf("urls=: row headers' files %v", heads)
	}
	if got := b.tensorCells("rgb"); !reflect.DeepEqual(got, wantRGB) {
		t.Errorf("urls=: rgb cells\n got %+v\nwant %+v", got, wantRGB)
	}
}
