//go:build !wasm

package e2e

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowser drives the static build in headless Chromium as a person would:
// open files written by apache-arrow (JS) through the file input and by
// dropping them, read the tensor hooks and preview pixels, open broken files
// and recover.
func TestBrowser(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	want := loadExpected(t)
	b := newBrowser(t)

	t.Run("file input: images", func(t *testing.T) {
		b.t = t
		b.upload("../testdata/js_images.arrow")
		b.waitOpened("js_images.arrow")
		b.checkJSImages(want)
	})

	t.Run("drop: variable shape tensors", func(t *testing.T) {
		b.t = t
		b.drop("js_variable.arrow")
		b.waitOpened("js_variable.arrow")
		got := b.tensorCells("vt")
		var wantCells []tensorCell
		for i, r := range want.Files["js_variable.arrow"].Columns["vt"].Rows {
			c := tensorCell{Row: fmt.Sprint(i), Field: "vt"}
			if r == nil {
				c.Null = true
			} else {
				c.Shape, c.LogicalShape, c.DimNames, c.LogicalDimNames = joinInts(r.Shape), joinInts(r.Shape), "H,W,C", "H,W,C"
				if r.Shape[0] > 0 {
					c.Preview = "rgb"
				}
			}
			wantCells = append(wantCells, c)
		}
		if !reflect.DeepEqual(got, wantCells) {
			t.Errorf("vt cells\n got %+v\nwant %+v", got, wantCells)
		}
		b.checkNullTensors("vt", wantCells)
		var uniform string
		b.eval(`document.querySelector('tr[data-field=vt]').textContent`, &uniform)
		if !strings.Contains(uniform, "uniform_shape [null,null,3]") {
			t.Errorf("schema row of vt does not show uniform_shape: %q", uniform)
		}
	})

	t.Run("corrupt file shows an alert, then a good file opens", func(t *testing.T) {
		b.t = t
		b.upload("../testdata/js_corrupt.arrow")
		b.waitFor(`document.querySelector('[data-state=error] [role=alert]') !== null`)
		var msg string
		b.eval(`document.querySelector('[role=alert]').textContent`, &msg)
		if !strings.HasPrefix(msg, "Cannot open js_corrupt.arrow. ") || len(msg) < 50 {
			t.Errorf("alert %q does not say what is wrong", msg)
		}
		b.upload("../testdata/not_arrow.arrow")
		b.waitFor(`document.querySelector('[role=alert]')?.textContent.includes('not an Arrow IPC file')`)

		b.upload("../testdata/js_permuted.arrow")
		b.waitOpened("js_permuted.arrow")
		var alerts int
		b.eval(`document.querySelectorAll('[role=alert]').length`, &alerts)
		if alerts != 0 {
			t.Errorf("%d alerts still shown after a good file opened", alerts)
		}
		got := b.tensorCells("t")
		if len(got) != 2 || got[0].Shape != "2,2,3" || got[0].LogicalShape != "3,2,2" || got[0].DimNames != "A,B,C" || got[0].LogicalDimNames != "C,A,B" {
			t.Errorf("permuted cells %+v: want physical 2,2,3 A,B,C and logical 3,2,2 C,A,B", got)
		}
		// A refused file names itself and the file still shown.
		b.upload("../testdata/not_arrow.arrow")
		b.waitFor(`document.querySelector('[role=alert]')?.textContent.includes('not an Arrow IPC file')`)
		b.eval(`document.querySelector('[role=alert]').textContent`, &msg)
		if !strings.HasPrefix(msg, "Cannot open not_arrow.arrow. ") || !strings.HasSuffix(msg, " Still showing js_permuted.arrow.") {
			t.Errorf("alert %q: want it to name not_arrow.arrow and say js_permuted.arrow is still shown", msg)
		}
		if got := b.tensorCells("t"); len(got) != 2 {
			t.Errorf("after a refused file, %d cells of js_permuted.arrow, want 2", len(got))
		}
	})

	t.Run("a column with invalid tensor metadata shows its error, the rest displays", func(t *testing.T) {
		b.t = t
		b.upload(badMetadataFile(t))
		b.waitOpened("bad_metadata.arrow")
		var field struct{ Extension, Error string }
		b.eval(`(e => ({Extension: e.dataset.extension, Error: e.dataset.error || ''}))(document.querySelector('tr[data-field=t]'))`, &field)
		wantErr := "Product of shape dimensions (9) does not match FixedSizeList size (4)"
		if field.Extension != "arrow.fixed_shape_tensor" || field.Error != wantErr {
			t.Errorf("schema row t = %+v, want extension arrow.fixed_shape_tensor and error %q", field, wantErr)
		}
		var texts []string
		b.eval(`[...document.querySelectorAll('[data-row] [data-field]')].map(e => e.dataset.field + '=' + e.textContent)`, &texts)
		wantTexts := []string{"id=7", "t=[1,2,3,4]", "<b>html</b>=<i>not italic</i>",
			"id=8", "t=[1,2,3,4]", `<b>html</b>=<img src=x onerror="window.pwned=1">`}
		if !reflect.DeepEqual(texts, wantTexts) {
			t.Errorf("cells %q, want %q", texts, wantTexts)
		}
		// Text from the file is text: no element was made from it.
		var injected bool
		b.eval(`window.pwned !== undefined || document.querySelector('.file b, .file i, .file img') !== null`, &injected)
		if injected {
			t.Error("text from the file was rendered as HTML")
		}
	})

	t.Run("sample link, windowed rows, scroll to the end", func(t *testing.T) {
		b.t = t
		b.openSample("js_big.arrow")
		b.waitOpened("js_big.arrow")
		b.screenshot("viewer")
		var inDOM int
		b.eval(`document.querySelectorAll('[data-row]').length`, &inDOM)
		if inDOM == 0 || inDOM >= 64 {
			t.Errorf("%d of 64 rows in the DOM: want a window", inDOM)
		}
		b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollTop = v.scrollHeight; return true })()`, nil)
		b.waitFor(`document.querySelector('[data-row="63"] [data-field=image] canvas[data-preview=rgb]') !== null`)
		rows := want.Files["js_big.arrow"]
		if rows.NumRows != 64 {
			t.Fatalf("expected file has %d rows", rows.NumRows)
		}
		cells := b.tensorCells("mask")
		last := cells[len(cells)-1]
		if last.Row != "63" || last.Shape != "15,11" || last.Preview != "gray" {
			t.Errorf("last mask cell %+v, want row 63 shape 15,11 with a gray preview", last)
		}
	})
}

// TestTensorMessageFile opens testdata/js_tensor_message.arrow, an Arrow IPC
// Tensor message (what pyarrow.ipc.write_tensor writes) built by
// testdata/gen_tensor_message.mjs: a column-major uint8 image (H, W, C) =
// (4, 6, 3) whose element (h, w, c) is (40h + 20w + 90c + 7) mod 256. The
// page shows one row of one tensor column, its physical and logical shapes,
// an RGB preview with exactly those pixels, and the inspector on it.
func TestTensorMessageFile(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	value := func(h, w, c int) int { return (40*h + 20*w + 90*c + 7) % 256 }
	b := newBrowser(t)
	b.upload("../testdata/js_tensor_message.arrow")
	b.waitOpened("js_tensor_message.arrow")
	var format, rows string
	b.eval(`document.querySelector('[data-role=format]').textContent`, &format)
	b.eval(`document.querySelector('[data-role=num-rows]').textContent`, &rows)
	if format != "Arrow IPC Tensor message" || rows != "1" {
		t.Errorf("format %q, rows %q; want Arrow IPC Tensor message, 1", format, rows)
	}
	cells := b.tensorCells("tensor")
	want := []tensorCell{{Row: "0", Field: "tensor", Shape: "3,6,4", LogicalShape: "4,6,3", DimNames: "C,W,H", LogicalDimNames: "H,W,C", Preview: "rgb"}}
	if !reflect.DeepEqual(cells, want) {
		t.Errorf("cells\n got %+v\nwant %+v", cells, want)
	}
	w, h, pix := b.canvas(0, "tensor")
	var wantPix []int
	for y := range 4 {
		for x := range 6 {
			wantPix = append(wantPix, value(y, x, 0), value(y, x, 1), value(y, x, 2), 255)
		}
	}
	if w != 6 || h != 4 || !reflect.DeepEqual(pix, wantPix) {
		t.Errorf("preview %d×%d %v, want 6×4 %v", w, h, pix, wantPix)
	}
	b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="tensor"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field="tensor"][data-row="0"] [data-role=stats]') !== null`)
	var stats struct{ Min, Max string }
	b.eval(`(e => ({Min: e.dataset.min, Max: e.dataset.max}))(document.querySelector('[data-role=stats]'))`, &stats)
	lo, hi := 255, 0
	for y := range 4 {
		for x := range 6 {
			for c := range 3 {
				lo, hi = min(lo, value(y, x, c)), max(hi, value(y, x, c))
			}
		}
	}
	if stats.Min != strconv.Itoa(lo) || stats.Max != strconv.Itoa(hi) {
		t.Errorf("inspector stats %+v, want min %d max %d", stats, lo, hi)
	}
	b.screenshot("tensor-message")
}
