//go:build !wasm

package e2e

import (
	"bytes"
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/chromedp/chromedp"
)

// TestLargeFiles opens a file eight times larger than the cache budget set
// in the URL, jumps to its last row and reads its values; then cancels the
// indexing of a stream of thousands of record batches.
func TestLargeFiles(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	big := batchesFile(t, "batches.arrow", false, 40, 64) // 40 × 64 rows × 3 KiB ≈ 7.5 MiB
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?cache=1"))
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
	b.upload(big)
	b.waitOpened("batches.arrow")
	var rows string
	b.eval(`document.querySelector('[data-role=num-rows]').textContent`, &rows)
	if rows != "2560" {
		t.Errorf("rows %q, want 2560", rows)
	}
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = v.scrollHeight; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="2559"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`)
	var last struct {
		ID  string
		Pix []int
	}
	b.eval(`(() => { const r = document.querySelector('[data-row="2559"]'); const c = r.querySelector('canvas');
		return {ID: r.querySelector('[data-field=id]').textContent, Pix: Array.from(c.getContext('2d').getImageData(0, 0, 2, 1).data)} })()`, &last)
	// Row 2559, pixels (0,0) and (0,1): elements 0..5 are (2559+k) % 251.
	want := []int{49, 50, 51, 255, 52, 53, 54, 255}
	if last.ID != "2559" || !reflect.DeepEqual(last.Pix, want) {
		t.Errorf("last row %+v, want id 2559 pixels %v", last, want)
	}
	var cache struct{ Bytes, Budget int64 }
	b.eval(`(e => ({Bytes: +e.dataset.bytes, Budget: +e.dataset.budget}))(document.querySelector('[data-role=cache]'))`, &cache)
	if cache.Budget != 1<<20 || cache.Bytes <= 0 || cache.Bytes > cache.Budget {
		t.Errorf("cache %+v: want 0 < bytes <= budget = 1 MiB", cache)
	}

	// One record batch of 7.5 MiB under a 1 MiB budget: read by row windows.
	single := batchesFile(t, "single.arrow", false, 1, 2560)
	b.upload(single)
	b.waitOpened("single.arrow")
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = v.scrollHeight; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="2559"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`)
	b.eval(`(() => { const r = document.querySelector('[data-row="2559"]'); const c = r.querySelector('canvas');
		return {ID: r.querySelector('[data-field=id]').textContent, Pix: Array.from(c.getContext('2d').getImageData(0, 0, 2, 1).data)} })()`, &last)
	if last.ID != "2559" || !reflect.DeepEqual(last.Pix, want) {
		t.Errorf("single batch, last row %+v, want id 2559 pixels %v", last, want)
	}
	b.eval(`(e => ({Bytes: +e.dataset.bytes, Budget: +e.dataset.budget}))(document.querySelector('[data-role=cache]'))`, &cache)
	if cache.Bytes <= 0 || cache.Bytes > cache.Budget {
		t.Errorf("single batch: cache %+v over budget", cache)
	}
	var warnings int
	b.eval(`document.querySelectorAll('[data-role=file-warnings] .warning').length`, &warnings)
	if warnings != 0 {
		t.Errorf("%d warnings: the batch should be read by windows, not whole", warnings)
	}

	stream := batchesFile(t, "many.arrows", true, 8000, 1) // indexing takes seconds: long enough to cancel
	b.upload(stream)
	b.waitFor(`document.querySelector('[data-role=progress][data-task=index][data-bytes-total] [data-rows]') !== null`)
	var prog struct{ Read, Total, Rows int64 }
	b.eval(`(e => ({Read: +e.dataset.bytesRead, Total: +e.dataset.bytesTotal, Rows: +e.querySelector('[data-rows]').dataset.rows}))(document.querySelector('[data-role=progress]'))`, &prog)
	if st, _ := os.Stat(stream); prog.Total != st.Size() || prog.Read > prog.Total || prog.Rows <= 0 || prog.Rows > 8000 {
		t.Errorf("progress %+v of a %d-byte file of 8000 rows", prog, st.Size())
	}
	// The indexing's card stands at the window's foot, over the rows:
	// the grid does not move when it comes and goes.
	var card struct{ Fixed bool }
	b.eval(`({Fixed: getComputedStyle(document.querySelector('.work-status')).position === 'fixed'})`, &card)
	if !card.Fixed {
		t.Error("the indexing progress is not in the fixed card at the window's foot")
	}
	b.screenshot("indexing-card")
	// Progress updates must not remount the table: scroll down, let the
	// progress move, and the rows stay where they were.
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = 500 * 84; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="500"]') !== null`)
	b.waitFor(fmt.Sprintf(`(+document.querySelector('[data-role=progress]')?.dataset.bytesRead || Infinity) > %d`, prog.Read))
	var top float64
	b.eval(`document.querySelector('[data-role=rows]').scrollTop`, &top)
	if top < 500*84-1 {
		t.Errorf("the rows scrolled back to %v while indexing progressed", top)
	}
	b.run(chromedp.Click(`[data-action=cancel]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=progress]') === null`)
	var exact string
	b.eval(`document.querySelector('[data-role=num-rows]').dataset.exact`, &exact)
	if exact != "false" {
		t.Errorf("after cancelling, the row count says exact=%q: it should stay an estimate", exact)
	}
	// What was indexed before the cancel still reads.
	b.eval(`(() => { document.querySelector('[data-role=rows]').scrollTop = 0; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="0"]:not([data-loading]) [data-field=id]')?.textContent === '0'
		&& document.querySelector('[data-row="9"]:not([data-loading]) [data-field=id]')?.textContent === '9'`)
}

// TestSlowDisk opens a file whose reads take 300 ms each (a slow disk or
// network drive): the page says it is reading the file, then shows it; and
// the rows beyond the view (drawn a frame after the first ones) come too.
func TestSlowDisk(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	path := batchesFile(t, "slow.arrow", false, 4, 8) // rows 8 and on, beyond the view, are in the second batch
	b := newBrowser(t)
	b.slowReads(0, 300)
	b.upload(path)
	b.waitFor(`document.querySelector('[data-state=loading] .loading')?.textContent === 'Reading slow.arrow…'`)
	b.waitOpened("slow.arrow")
	// The last row drawn (overscan beyond the view, in the second batch: 8
	// rows a batch) shows its value.
	b.waitFor(`(rows => rows.length > 8 && !rows[rows.length-1].hasAttribute('data-loading') &&
		rows[rows.length-1].querySelector('[data-field=id]')?.textContent === rows[rows.length-1].dataset.row)([...document.querySelectorAll('[data-row]')])`)
	var loading int
	b.eval(`document.querySelectorAll('.loading').length`, &loading)
	if loading != 0 {
		t.Errorf("%d loading messages left after the file opened", loading)
	}
}

// TestCancelRead opens an lz4-compressed file of one 12 MiB record batch,
// which is read whole (compressed buffers cannot be read by row windows),
// from a slow disk: the read shows its progress in bytes, Cancel stops it,
// the rows offer to read again, and reading again shows the right values.
func TestCancelRead(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	const rows = 96
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "noise", Type: arrow.BinaryTypes.Binary},
	}, nil)
	ids := array.NewInt64Builder(memory.DefaultAllocator)
	noise := array.NewBinaryBuilder(memory.DefaultAllocator, arrow.BinaryTypes.Binary)
	rnd := rand.New(rand.NewSource(1))
	for i := range rows {
		ids.Append(int64(i))
		p := make([]byte, 128<<10) // random: lz4 cannot shrink it
		rnd.Read(p)
		noise.Append(p)
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), noise.NewArray()}, rows)
	path := writeIPCFileWith(t, "noise.arrow", schema, []ipc.Option{ipc.WithLZ4()}, rec)

	b := newBrowser(t)
	b.slowReads(1<<20, 1000)
	b.upload(path)
	b.waitFor(`document.querySelector('[data-role=progress][data-task=read]') !== null`)
	var prog struct{ Read, Total int64 }
	b.eval(`(e => ({Read: +e.dataset.bytesRead, Total: +e.dataset.bytesTotal}))(document.querySelector('[data-role=progress][data-task=read]'))`, &prog)
	if st, _ := os.Stat(path); prog.Total < 12<<20 || prog.Total > st.Size() || prog.Read >= prog.Total {
		t.Errorf("read progress %+v for a %d-byte file, want part of the 12 MiB batch", prog, st.Size())
	}
	b.run(chromedp.Click(`[data-role=progress][data-task=read] [data-action=cancel]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-row="0"][data-cancelled] [data-action=read-again]') !== null
		&& document.querySelector('[data-role=progress]') === null`)

	b.eval(`window.__slow = false`, nil)
	b.run(chromedp.Click(`[data-row="0"] [data-action=read-again]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-row="0"]:not([data-loading]):not([data-cancelled]) [data-field=id]')?.textContent === '0'
		&& document.querySelector('[data-row="5"] [data-field=id]')?.textContent === '5'`)
	var cached int64
	b.eval(`+document.querySelector('[data-role=cache]').dataset.bytes`, &cached)
	if cached < 12<<20 {
		t.Errorf("cache holds %d bytes after reading the batch again, want the 12 MiB batch", cached)
	}
}

// TestMillionRows scrolls a file of 2 million rows, more than a browser can
// give one pixel row each at the table's row height, to its end and to its
// middle: the rows shown are the right ones.
func TestMillionRows(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	const rows, batches = 2_000_000, 16
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	path := filepath.Join(t.TempDir(), "million.arrow")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ipc.NewFileWriter(out, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, rows/batches)
	for b := 0; b < batches; b++ {
		for k := range ids {
			ids[k] = int64(b*len(ids) + k)
		}
		ib := array.NewInt64Builder(memory.DefaultAllocator)
		ib.AppendValues(ids, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{ib.NewArray()}, int64(len(ids)))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	out.Close()

	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("million.arrow")
	for _, c := range []struct {
		frac float64
		row  int
	}{{1, rows - 1}, {0.5, -1}, {0, 0}} {
		b.eval(fmt.Sprintf(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = (v.scrollHeight - v.clientHeight) * %g; return true })()`, c.frac), nil)
		want := c.row
		if want < 0 {
			// The middle: some row near 1,000,000 is in view, showing its own id.
			b.waitFor(`(r => r && Math.abs(+r.dataset.row - 1000000) < 1000)(document.querySelector('[data-row]:not([data-loading])'))`)
			var ok bool
			b.eval(`[...document.querySelectorAll('[data-row]:not([data-loading])')].every(r => r.querySelector('[data-field=id]').textContent === r.dataset.row)`, &ok)
			if !ok {
				t.Error("in the middle, a row shows another row's id")
			}
			continue
		}
		b.waitFor(fmt.Sprintf(`document.querySelector('[data-row="%d"]:not([data-loading]) [data-field=id]')?.textContent === '%d'`, want, want))
		// The row is inside the visible part of the container.
		var inView bool
		b.eval(fmt.Sprintf(`(() => { const v = document.querySelector('[data-role=rows]').getBoundingClientRect();
			const r = document.querySelector('[data-row="%d"]').getBoundingClientRect();
			return r.top >= v.top - 1 && r.bottom <= v.bottom + 1 })()`, want), &inView)
		if !inView {
			t.Errorf("row %d is in the DOM but not in view", want)
		}
	}
}

// TestOpenLargeURL opens a generated file of about 300 MiB by URL from a
// Range server: the first previews show after transferring under 2 % of
// its bytes (counted by the server), and the last row reads by range too.
func TestOpenLargeURL(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	big := batchesFile(t, "big.arrow", false, 1600, 64) // 1600 × 64 rows × 3 KiB ≈ 300 MiB
	st, err := os.Stat(big)
	if err != nil {
		t.Fatal(err)
	}
	host := newFileHost(t, map[string]string{"big.arrow": big})
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=" + url.QueryEscape(host.url("range", "big.arrow"))))
	b.waitOpened("big.arrow")
	b.waitFor(`document.querySelector('[data-row="0"] [data-field=image] canvas[data-preview=rgb]') !== null`)
	sent, requests := host.sent.Load(), host.requests.Load()
	t.Logf("first previews of a %s file by URL: %s in %d requests (%.2f %%)", mib(st.Size()), mib(sent), requests, 100*float64(sent)/float64(st.Size()))
	if float64(sent) > 0.02*float64(st.Size()) {
		t.Errorf("%s transferred before the first previews: more than 2 %% of %s", mib(sent), mib(st.Size()))
	}
	var rows string
	b.eval(`document.querySelector('[data-role=num-rows]').textContent`, &rows)
	// The row count is exact once the background indexing has read every
	// record batch's header (a small range request each).
	b.waitWithin(`document.querySelector('[data-role=num-rows]').textContent === '102400'`, 2*time.Minute)
	// A row in the middle, then the last row, by range, with its values: id 102399, first pixel
	// (id + k) % 251 for k = 0, 1, 2.
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = v.scrollHeight / 2; return true })()`, nil)
	b.waitFor(`[...document.querySelectorAll('[data-row]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]')].some(c => +c.closest('[data-row]').dataset.row > 50000)`)
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = v.scrollHeight; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="102399"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`)
	_, _, pix := b.canvas(102399, "image")
	id := 102399
	if wantPix := []int{id % 251, (id + 1) % 251, (id + 2) % 251}; len(pix) < 3 || !bytes.Equal(intsToBytes(pix[:3]), intsToBytes(wantPix)) {
		t.Errorf("row 102399's first pixel %v, want %v", pix[:min(len(pix), 3)], wantPix)
	}
	total := host.sent.Load()
	t.Logf("after indexing and reading a middle and the last row: %s in %d requests (%.2f %%)", mib(total), host.requests.Load(), 100*float64(total)/float64(st.Size()))
	if float64(total) > 0.05*float64(st.Size()) {
		t.Errorf("%s transferred to show the first and last rows of %s", mib(total), mib(st.Size()))
	}
}

func intsToBytes(v []int) []byte {
	out := make([]byte, len(v))
	for i, x := range v {
		out[i] = byte(x)
	}
	return out
}
