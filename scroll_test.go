package main

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

// TestScrollRows: previews larger than their place in the table are drawn
// at the size they show (a 128×96 image in medium rows, whose previews are
// 94×68 CSS pixels inside their border, at devicePixelRatio 1: 90×68,
// nearest neighbour); scrolling by a row leaves the rows in the page as
// they are (the browser scrolls them), and scrolling further draws the rows
// coming into view, in row order.
func TestScrollRows(t *testing.T) {
	skipWithoutSite(t)
	const rows, h, w = 48, 96, 128
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{h, w, 3}, nil, []string{"H", "W", "C"})
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "image", Type: typ}}, nil)
	ids := array.NewInt64Builder(memory.DefaultAllocator)
	tb := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	vals := make([]uint8, rows*h*w*3)
	for r := range rows {
		ids.Append(int64(r))
		for k := range h * w * 3 {
			vals[r*h*w*3+k] = uint8((r + k) % 251)
		}
	}
	if err := tb.AppendTensors(vals); err != nil {
		t.Fatal(err)
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), tb.NewArray()}, rows)
	defer rec.Release()
	path := writeIPCFile(t, "scroll.arrow", schema, rec)

	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("scroll.arrow")
	var dpr float64
	b.eval(`window.devicePixelRatio`, &dpr)
	if dpr != 1 {
		t.Fatalf("devicePixelRatio %v: the expected sizes are for 1 (the e2e browser runs at scale 1)", dpr)
	}
	// The rows beyond the view come a frame after the first ones.
	b.waitFor(`document.querySelector('[data-row="15"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`)
	gw, gh, pix := b.canvas(0, "image")
	const ow, oh = 90, 68
	if gw != ow || gh != oh || len(pix) != ow*oh*4 {
		t.Fatalf("row 0's preview %dx%d (%d values), want %dx%d", gw, gh, len(pix), ow, oh)
	}
	for _, p := range [][2]int{{0, 0}, {1, 1}, {45, 30}, {89, 67}} {
		x, y := p[0], p[1]
		sx, sy := x*w/ow, y*h/oh
		for c := range 3 {
			want := (sy*w*3 + sx*3 + c) % 251
			if got := pix[(y*ow+x)*4+c]; got != want {
				t.Errorf("row 0 pixel (%d, %d) channel %d = %d, want %d (source pixel (%d, %d))", x, y, c, got, want, sx, sy)
			}
		}
	}

	// Rows drawn, in page order.
	drawn := func() []string {
		var got []string
		b.eval(`[...document.querySelectorAll('[data-row]')].map(r => r.dataset.row)`, &got)
		return got
	}
	before := drawn()
	for i, r := range before {
		if r != fmt.Sprint(i) {
			t.Fatalf("rows drawn %v: want 0, 1, 2, … in page order", before)
		}
	}
	// Scroll by one row (84 px): once the address says row 1, the page
	// has handled the scroll; no node of the rows changed.
	b.eval(`(() => {
		window.__mutations = 0;
		new MutationObserver(m => { window.__mutations += m.length })
			.observe(document.querySelector('.rows-body'), {subtree: true, childList: true, attributes: true, characterData: true});
		document.querySelector('[data-role=rows]').scrollTop = 84;
		return true })()`, nil)
	b.waitFor(`new URLSearchParams(location.search).get('row') === '1'`)
	var mutations int
	b.eval(`window.__mutations`, &mutations)
	if mutations != 0 {
		t.Errorf("scrolling by a row changed the rows drawn %d times, want none", mutations)
	}
	if got := drawn(); fmt.Sprint(got) != fmt.Sprint(before) {
		t.Errorf("rows drawn after scrolling by a row: %v, want %v", got, before)
	}

	// Scroll to row 30: its rows are drawn, in order, with their ids.
	b.eval(`document.querySelector('[data-role=rows]').scrollTop = 30 * 84, true`, nil)
	b.waitFor(`document.querySelector('[data-row="30"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`)
	b.screenshot("scroll-row-30")
	got := drawn()
	for i := 1; i < len(got); i++ {
		var prev, cur int
		fmt.Sscan(got[i-1], &prev)
		fmt.Sscan(got[i], &cur)
		if cur != prev+1 {
			t.Fatalf("rows drawn %v: want consecutive rows in page order", got)
		}
	}
	var ok bool
	b.eval(`[...document.querySelectorAll('[data-row]:not([data-loading])')].every(r => r.querySelector('[data-field=id]').textContent === r.dataset.row)`, &ok)
	if !ok {
		t.Error("a row shows another row's id")
	}
}
