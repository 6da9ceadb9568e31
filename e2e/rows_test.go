//go:build !wasm

package e2e

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/tensorext"
)

// TestKeyboard walks the rows grid of the main sample with the keyboard:
// arrows move the focused cell, Enter opens the inspector on it and Escape
// gives the focus back to it, Ctrl+End goes to the last row (scrolled into
// view), "/" goes to the "go to row" box, which moves the focus to the row
// typed.
func TestKeyboard(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	b := newBrowser(t)
	b.openSample("js_big.arrow")
	b.waitOpened("js_big.arrow")
	focused := func() string {
		var at string
		b.eval(`(e => e && e.closest('[data-row]') ? e.closest('[data-row]').dataset.row + ',' + (e.dataset.col ?? e.dataset.role) : (e?.dataset.role || e?.tagName))(document.activeElement)`, &at)
		return at
	}
	key := func(k string, mods ...input.Modifier) {
		b.run(chromedp.KeyEvent(k, chromedp.KeyModifiers(mods...)))
	}
	b.run(chromedp.Click(`[data-row="0"] [data-col="0"]`, chromedp.ByQuery))
	b.waitFor(`document.activeElement?.dataset.col === '0'`)
	for range 3 {
		key(kb.ArrowDown)
	}
	key(kb.ArrowRight)
	key(kb.ArrowRight)
	b.waitFor(`document.activeElement?.closest('[data-row]')?.dataset.row === '3' && document.activeElement?.dataset.col === '2'`)
	key(kb.Enter)
	b.waitFor(`document.querySelector('[data-role=inspector][data-row="3"][data-field=image]') !== null`)
	b.waitFor(`document.activeElement?.dataset.role === 'inspector'`) // the dialog has the keyboard
	key(kb.Escape)
	b.waitFor(`document.querySelector('[data-role=inspector]') === null`)
	b.waitFor(`document.activeElement?.closest('[data-row]')?.dataset.row === '3' && document.activeElement?.dataset.col === '2'`)
	key(kb.End, input.ModifierCtrl)
	b.waitFor(`document.activeElement?.closest('[data-row]')?.dataset.row === '63'`)
	var inView bool
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]').getBoundingClientRect(), c = document.activeElement.getBoundingClientRect();
		return c.top >= v.top && c.bottom <= v.bottom + 1 })()`, &inView)
	if !inView || focused() != "63,4" {
		t.Errorf("Ctrl+End: focus on %s, in view %v; want 63,4 in view", focused(), inView)
	}
	key("/")
	b.waitFor(`document.activeElement?.dataset.role === 'goto-row'`)
	b.run(chromedp.SendKeys(`[data-role=goto-row]`, "40"+kb.Enter, chromedp.ByQuery))
	b.waitFor(`document.activeElement?.closest('[data-row]')?.dataset.row === '40'`)
	if got := focused(); got != "40,4" {
		t.Errorf("go to row 40: focus on %s, want 40,4", got)
	}
}

// TestInspectorKeysInARow presses Escape, ArrowDown, Enter five times in
// one task (as a fast typist does, faster than the page draws), each sent
// where the browser's focus is at that moment: the keys act on the page's
// state, not on the dialog that is going, so the inspector ends on row 5,
// and Escape then gives the focus back to row 5's cell.
func TestInspectorKeysInARow(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	b := newBrowser(t)
	b.openSample("js_big.arrow")
	b.waitOpened("js_big.arrow")
	b.run(chromedp.Click(`[data-row="0"] [data-col="2"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-row="0"][data-field=image]') !== null`)
	b.waitFor(`document.activeElement?.dataset.role === 'inspector'`)
	// What each key met (where the focus was, which inspector was in the
	// page) and the inspectors that came and went, for a failed wait.
	b.eval(`(() => {
		window.__keys = [];
		new MutationObserver(() => window.__keys.push('inspector ' + [...document.querySelectorAll('[data-role=inspector]')].map(d => d.dataset.row).join(',')))
			.observe(document.body, {subtree: true, childList: true});
		const at = () => { const e = document.activeElement; return (e?.closest('[data-row]') ? 'row ' + e.closest('[data-row]').dataset.row + ' col ' + e.dataset.col : e?.dataset.role || e?.tagName) };
		for (let i = 0; i < 5; i++) {
			for (const key of ['Escape', 'ArrowDown', 'Enter']) {
				const before = at(), e = new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true});
				document.activeElement.dispatchEvent(e);
				window.__keys.push(key + ' at ' + before + (e.defaultPrevented ? ' (routed)' : '') + ' -> ' + at());
			}
		}
		return true })()`, nil)
	if err := b.pollWithin(`document.querySelector('[data-role=inspector][data-row="5"][data-field=image] canvas[data-role=slice]') !== null`, 30*time.Second); err != nil {
		var keys []string
		b.eval(`window.__keys`, &keys)
		t.Fatalf("%v: no inspector on row 5; the keys and inspectors:\n%s", err, strings.Join(keys, "\n"))
	}
	var rows []string
	b.eval(`[...document.querySelectorAll('[data-role=inspector]')].map(d => d.dataset.row)`, &rows)
	if len(rows) != 1 || rows[0] != "5" {
		t.Errorf("inspectors open on rows %v, want [5]", rows)
	}
	b.waitFor(`document.activeElement?.dataset.role === 'inspector'`)
	b.run(chromedp.KeyEvent(kb.Escape))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null`)
	b.waitFor(`document.activeElement?.closest('[data-row]')?.dataset.row === '5' && document.activeElement?.dataset.col === '2'`)
}

// TestRowHeights: rows are as tall as what they show: one line of text in a
// file without tensors; in a file with previews, the preview size the
// control chooses (remembered across a reload).
func TestRowHeights(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}, {Name: "name", Type: arrow.BinaryTypes.String}}, nil)
	ib, sb := array.NewInt32Builder(memory.DefaultAllocator), array.NewStringBuilder(memory.DefaultAllocator)
	for i := range 100 {
		ib.Append(int32(i))
		sb.Append(fmt.Sprintf("row %d", i))
	}
	ids, names := ib.NewArray(), sb.NewArray()
	defer ids.Release()
	defer names.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{ids, names}, 100)
	defer rec.Release()
	path := writeIPCFile(t, "text.arrow", schema, rec)

	b := newBrowser(t)
	rowStep := func() (step float64, size string) {
		var got struct {
			Step float64
			Size string
		}
		b.eval(`(() => { const a = document.querySelector('[data-row="0"]'), c = document.querySelector('[data-row="1"]');
			return {Step: c.getBoundingClientRect().top - a.getBoundingClientRect().top, Size: document.querySelector('[data-role=rows]').dataset.size} })()`, &got)
		return got.Step, got.Size
	}
	b.upload(path)
	b.waitOpened("text.arrow")
	if step, size := rowStep(); step != 36 || size != "text" {
		t.Errorf("text-only rows: %v px apart, data-size %q; want 36, text", step, size)
	}
	var controls int
	b.eval(`document.querySelectorAll('[data-role=preview-size]').length`, &controls)
	if controls != 0 {
		t.Error("a file without previews offers a preview size")
	}
	b.openSample("js_big.arrow")
	b.waitOpened("js_big.arrow")
	if step, size := rowStep(); step != 84 || size != "medium" {
		t.Errorf("js_big.arrow: rows %v px apart, data-size %q; want 84, medium", step, size)
	}
	for _, c := range []struct {
		size          string
		step, preview float64
	}{{"large", 164, 200}, {"small", 52, 56}} {
		b.setValue(`[data-role=preview-size]`, c.size)
		b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=rows]').dataset.size === %q`, c.size))
		var width float64
		b.eval(`document.querySelector('[data-row="0"] canvas[data-preview]').getBoundingClientRect().width`, &width)
		if step, _ := rowStep(); step != c.step || width != c.preview {
			t.Errorf("%s: rows %v px apart, previews %v px wide; want %v, %v", c.size, step, width, c.step, c.preview)
		}
	}
	b.run(chromedp.Reload()) // the address holds the sample's URL: it opens again
	b.waitOpened("js_big.arrow")
	if _, size := rowStep(); size != "small" {
		t.Errorf("after a reload the preview size is %q, want small", size)
	}
}

// TestManyColumns opens a file of 500 int32 columns (c0 … c499, value
// 1000·row + column): only the columns in view are drawn; scrolling to the
// right end shows the last ones with their values, and End moves the
// keyboard there.
func TestManyColumns(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	const cols, rows = 500, 50
	fields := make([]arrow.Field, cols)
	arrs := make([]arrow.Array, cols)
	for c := range cols {
		fields[c] = arrow.Field{Name: fmt.Sprintf("c%d", c), Type: arrow.PrimitiveTypes.Int32}
		bld := array.NewInt32Builder(memory.DefaultAllocator)
		for r := range rows {
			bld.Append(int32(1000*r + c))
		}
		arrs[c] = bld.NewArray()
		defer arrs[c].Release()
	}
	schema := arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(schema, arrs, rows)
	defer rec.Release()
	path := writeIPCFile(t, "wide.arrow", schema, rec)

	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("wide.arrow")
	var drawn int
	b.eval(`document.querySelectorAll('[data-row="0"] [data-col]').length`, &drawn)
	if drawn == 0 || drawn > 20 {
		t.Errorf("%d of 500 columns drawn in row 0", drawn)
	}
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollLeft = v.scrollWidth; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="3"] [data-field=c499]')?.textContent === '3499'`)
	var head string
	b.eval(`document.querySelector('.rows-header [data-col="499"]')?.textContent ?? ''`, &head)
	if head != "c499" {
		t.Errorf("header of the last column %q, want c499", head)
	}
	b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollLeft = 0; return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="0"] [data-col="0"]') !== null`)
	b.run(chromedp.Click(`[data-row="1"] [data-col="0"]`, chromedp.ByQuery))
	b.run(chromedp.KeyEvent(kb.End))
	b.waitFor(`document.activeElement?.dataset.col === '499' && document.activeElement?.textContent === '1499'`)
	b.screenshot("many-columns")
}

// TestColumnResize drags the edge of a column's header to widen it by 120
// px, and double-clicks another's to fit it to its content.
func TestColumnResize(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	b := newBrowser(t)
	b.openSample("js_big.arrow")
	b.waitOpened("js_big.arrow")
	width := func(col int) float64 {
		var w float64
		b.eval(fmt.Sprintf(`document.querySelector('.rows-header [data-col="%d"]').getBoundingClientRect().width`, col), &w)
		return w
	}
	var handle struct{ X, Y float64 }
	b.eval(`(r => ({X: r.left + r.width / 2, Y: r.top + r.height / 2}))(document.querySelector('.rows-header [data-col="1"] .col-resize').getBoundingClientRect())`, &handle)
	before := width(1)
	b.run(chromedp.MouseEvent(input.MouseMoved, handle.X, handle.Y),
		chromedp.MouseEvent(input.MousePressed, handle.X, handle.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, handle.X+60, handle.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, handle.X+120, handle.Y, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseReleased, handle.X+120, handle.Y, chromedp.ButtonLeft))
	b.waitFor(fmt.Sprintf(`document.querySelector('.rows-header [data-col="1"]').getBoundingClientRect().width > %v`, before+100))
	if after := width(1); math.Abs(after-before-120) > 2 {
		t.Errorf("dragged 120 px: the column went from %v to %v px", before, after)
	}
	// Cells follow their header.
	var cell float64
	b.eval(`document.querySelector('[data-row="0"] [data-col="1"]').getBoundingClientRect().width`, &cell)
	if math.Abs(cell-width(1)) > 1 {
		t.Errorf("cell %v px wide under a %v px header", cell, width(1))
	}
	b.run(chromedp.DoubleClick(`.rows-header [data-col="0"] .col-resize`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('.rows-header [data-col="0"]').getBoundingClientRect().width < 120`)
	if w := width(0); w < 48 {
		t.Errorf("fitted id column %v px wide", w)
	}
}

// countRows records, from the document's start, each new number of rows
// drawn in the file view (not the warm-up's hidden one), as the page's
// renders change it.
const countRows = `
window.__rowCounts = [];
new MutationObserver(() => {
	const n = [...document.querySelectorAll('.rows-body > [data-row]')].filter(e => !e.closest('.warm-up')).length;
	const c = window.__rowCounts;
	if (n > 0 && c[c.length - 1] !== n) c.push(n);
}).observe(document, {subtree: true, childList: true});
`

// TestRowsSettleInSteps: a file's first frame draws the rows in view; the
// rows beyond it come in two more frames, about half each (drawing them all
// at once was a task of about 100 ms), until data-settled says all are
// there; rows keep their data meanwhile.
func TestRowsSettleInSteps(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	const rows, h, w = 200, 32, 32
	path := tensorRowsFile(t, "settle.arrow", "t", rows, []int{h, w}, nil,
		func(r int) int64 { return int64(r) }, func(r, k int) uint8 { return uint8(r + k) })

	b := newBrowserWith(t, "", countRows)
	b.upload(path)
	b.waitOpened("settle.arrow")
	b.waitFor(`document.querySelector('[data-role=rows][data-settled=true]') !== null`)
	var counts []int
	b.eval(`window.__rowCounts`, &counts)
	// Rows in view: the container's height over the row height (84 px,
	// medium previews), plus the one cut at the bottom.
	var inView int
	b.eval(`Math.floor((document.querySelector('[data-role=rows]').clientHeight - 36) / 84) + 1`, &inView)
	// Before settling: the rows in view (those of the default height, then
	// of the measured one); then two steps of about half the rest each.
	n := len(counts)
	if n < 3 {
		t.Fatalf("rows drawn went %v: want the rows in view, about half of the rest, all", counts)
	}
	if counts[n-3] > inView+1 {
		t.Errorf("rows drawn went %v: before settling, want those in view (%d)", counts, inView)
	}
	first, second := counts[n-2]-counts[n-3], counts[n-1]-counts[n-2]
	if first <= 0 || second <= 0 || first-second > 1 || second-first > 1 {
		t.Errorf("rows drawn went %v: want the rows beyond the view added in two about equal steps", counts)
	}
	// Every row drawn shows its own id.
	var bad []string
	b.eval(`[...document.querySelectorAll('.rows-body > [data-row]')].filter(r =>
		r.querySelector('[data-field=id]')?.textContent.trim() !== r.dataset.row).map(r => r.dataset.row)`, &bad)
	if len(bad) > 0 {
		t.Errorf("rows %v do not show their own id", bad)
	}
}

// TestScrollRows: previews larger than their place in the table are drawn
// at the size they show (a 128×96 image in medium rows, whose previews are
// 94×68 CSS pixels inside their border, at devicePixelRatio 1: 90×68,
// nearest neighbour); scrolling by a row leaves the rows in the page as
// they are (the browser scrolls them); scrolling by a block of rows
// changes only the elements of the rows that come into view and of those
// that leave it (each row keeps its element while drawn); scrolling
// further, and flinging, draws the rows in view with their own values, the
// grid's aria-rowindex giving their order (the page order is a rotation of
// it).
func TestScrollRows(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	const rows, h, w = 120, 96, 128
	path := tensorRowsFile(t, "scroll.arrow", "image", rows, []int{h, w, 3}, []string{"H", "W", "C"},
		func(r int) int64 { return int64(r) }, func(r, k int) uint8 { return uint8((r + k) % 251) })

	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("scroll.arrow")
	var dpr float64
	b.eval(`window.devicePixelRatio`, &dpr)
	if dpr != 1 {
		t.Fatalf("devicePixelRatio %v: the expected sizes are for 1 (the e2e browser runs at scale 1)", dpr)
	}
	// pixels checks row's preview against the file's values: pixel (x, y)
	// of the preview is the source pixel (x*w/ow, y*h/oh).
	pixels := func(row int) {
		t.Helper()
		gw, gh, pix := b.canvas(row, "image")
		const ow, oh = 90, 68
		if gw != ow || gh != oh || len(pix) != ow*oh*4 {
			t.Fatalf("row %d's preview %dx%d (%d values), want %dx%d", row, gw, gh, len(pix), ow, oh)
		}
		for _, p := range [][2]int{{0, 0}, {1, 1}, {45, 30}, {89, 67}} {
			x, y := p[0], p[1]
			sx, sy := x*w/ow, y*h/oh
			for c := range 3 {
				want := (row + sy*w*3 + sx*3 + c) % 251
				if got := pix[(y*ow+x)*4+c]; got != want {
					t.Errorf("row %d pixel (%d, %d) channel %d = %d, want %d (source pixel (%d, %d))", row, x, y, c, got, want, sx, sy)
				}
			}
		}
	}
	// The rows beyond the view come in the two frames after the first
	// ones (data-settled then).
	b.waitFor(`document.querySelector('[data-role=rows][data-settled=true]') !== null`)
	b.waitFor(`document.querySelector('[data-row="15"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`)
	pixels(0)

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

	// Scroll by a block (8 rows, from row 8 to row 16): the rows drawn
	// move by 8; only the elements (slots) of the 8 rows that come in and
	// of the 8 that leave change, the others and their canvases are left
	// as they are.
	b.eval(`document.querySelector('[data-role=rows]').scrollTop = 8 * 84, true`, nil)
	b.waitFor(`new URLSearchParams(location.search).get('row') === '8'`)
	b.eval(`(() => {
		const body = document.querySelector('.rows-body');
		window.__slots = [...body.children];
		window.__before = __slots.map(e => e.dataset.row ?? '');
		window.__canvases = __slots.map(e => e.querySelector('canvas'));
		window.__touched = new Set();
		window.__replaced = 0;
		new MutationObserver(ms => {
			for (const m of ms) {
				if (m.target === body) { window.__replaced++; continue; }
				let n = m.target;
				while (n && n.parentElement !== body) n = n.parentElement;
				__touched.add(__slots.indexOf(n));
			}
		}).observe(body, {subtree: true, childList: true, attributes: true, characterData: true});
		document.querySelector('[data-role=rows]').scrollTop = 16 * 84;
		return true })()`, nil)
	b.waitFor(`new URLSearchParams(location.search).get('row') === '16'`)
	var block struct {
		Before, After []string
		Touched       []int
		Replaced      int
		SameCanvas    bool // the rows drawn before and after kept their canvases
	}
	b.eval(`(() => {
		const after = __slots.map(e => e.dataset.row ?? '');
		return {Before: __before, After: after, Touched: [...__touched].sort((a, b) => a - b), Replaced: __replaced,
			SameCanvas: __slots.every((e, k) => after[k] === '' || after[k] !== __before[k] || e.querySelector('canvas') === __canvases[k])};
	})()`, &block)
	if block.Replaced != 0 {
		t.Errorf("scrolling by a block replaced %d rows' elements, want none (each slot keeps its element)", block.Replaced)
	}
	// Where each row was drawn before: a row drawn before and after is
	// in the same element.
	was := map[string]int{}
	for k, r := range block.Before {
		if r != "" {
			was[r] = k
		}
	}
	var changed, entered, moved []int
	for k, r := range block.After {
		if r != block.Before[k] {
			changed = append(changed, k)
		}
		if at, ok := was[r]; r != "" && !ok {
			entered = append(entered, k)
		} else if ok && at != k {
			moved = append(moved, k)
		}
	}
	if fmt.Sprint(block.Touched) != fmt.Sprint(changed) || fmt.Sprint(changed) != fmt.Sprint(entered) || len(entered) != 8 || len(moved) != 0 || !block.SameCanvas {
		t.Errorf("scrolling by a block: elements changed %v, want those of the 8 rows entering %v (and no other); rows drawn in another element than before: %v; rows kept their canvases: %v\nbefore %v\nafter  %v",
			block.Touched, entered, moved, block.SameCanvas, block.Before, block.After)
	}

	// inOrder checks that the rows drawn are consecutive rows, with their
	// own ids, whose page order is row order rotated (the grid's
	// aria-rowindex says the order), and returns the first.
	inOrder := func(what string) int {
		t.Helper()
		var got []struct{ Row, Index, ID, Label string }
		b.eval(`[...document.querySelectorAll('[data-row]')].map(r => ({Row: r.dataset.row, Index: r.getAttribute('aria-rowindex'),
			ID: r.querySelector('[data-field=id]')?.textContent ?? '', Label: r.querySelector('.row-index').textContent}))`, &got)
		if len(got) == 0 {
			t.Fatalf("%s: no rows drawn", what)
		}
		var nums []int
		first, wraps := 0, 0
		for k, g := range got {
			var r, idx int
			fmt.Sscan(g.Row, &r)
			fmt.Sscan(g.Index, &idx)
			if idx != r+2 || g.ID != g.Row || g.Label != g.Row {
				t.Errorf("%s: row %s shows id %q, number %q, aria-rowindex %q (want %d)", what, g.Row, g.ID, g.Label, g.Index, r+2)
			}
			if k > 0 && r != nums[k-1]+1 {
				wraps++
			}
			if k == 0 || r < first {
				first = r
			}
			nums = append(nums, r)
		}
		if wraps > 1 || (wraps == 1 && nums[0] != nums[len(nums)-1]+1) {
			t.Fatalf("%s: rows drawn %v: want consecutive rows, in page order row order rotated", what, nums)
		}
		return first
	}

	// Scroll to row 30: its rows are drawn with their ids and previews.
	b.eval(`document.querySelector('[data-role=rows]').scrollTop = 30 * 84, true`, nil)
	b.waitFor(`document.querySelector('[data-row="30"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`)
	b.screenshot("scroll-row-30")
	inOrder("row 30")
	pixels(30)

	// Fling: 60 pixels a frame for 40 frames, then rest (the address
	// follows once the view rests): the rows in view are the right rows,
	// with their own values.
	b.eval(`(() => {
		const v = document.querySelector('[data-role=rows]');
		let n = 0;
		const step = () => {
			v.scrollTop += 60;
			if (++n < 40) requestAnimationFrame(step);
			else window.__flung = Math.floor(v.scrollTop / 84);
			if (n === 20) window.__midFling = true;
		};
		requestAnimationFrame(step);
		return true })()`, nil)
	b.waitFor(`window.__midFling === true`)
	b.screenshot("scroll-fling")
	b.waitFor(`window.__flung !== undefined && new URLSearchParams(location.search).get('row') === String(window.__flung)`)
	var end int
	b.eval(`window.__flung`, &end)
	if end != (30*84+40*60)/84 {
		t.Fatalf("the fling ended on row %d, want %d", end, (30*84+40*60)/84)
	}
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-row="%d"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`, end))
	b.screenshot("scroll-fling-rest")
	if first := inOrder("after the fling"); first > end {
		t.Errorf("after the fling to row %d the first row drawn is %d", end, first)
	}
	pixels(end)
	pixels(end + 3)
}

// TestScrollReadsAhead: while scrolling down, the record batches of the 16
// rows past the rows drawn are read before they come into view (the
// table's cache holds them, at least), so that scrolling on shows those rows with
// their data at once, never "loading…".
func TestScrollReadsAhead(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	const rows, per, h, w = 200, 8, 96, 128
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, []int{h, w, 3}, nil, []string{"H", "W", "C"})
	if err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: "image", Type: typ}}, nil)
	var recs []arrow.RecordBatch
	for b := 0; b < rows/per; b++ {
		ids := array.NewInt64Builder(memory.DefaultAllocator)
		tb := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
		vals := make([]uint8, per*h*w*3)
		for r := range per {
			ids.Append(int64(b*per + r))
			for k := range h * w * 3 {
				vals[r*h*w*3+k] = uint8((b*per + r + k) % 251)
			}
		}
		if err := tb.AppendTensors(vals); err != nil {
			t.Fatal(err)
		}
		rec := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), tb.NewArray()}, per)
		defer rec.Release()
		recs = append(recs, rec)
	}
	path := writeIPCFile(t, "ahead.arrow", schema, recs...)
	// The cache bytes of one batch, as the page's cache counts them.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := decode.OpenReader("ahead.arrow", bytes.NewReader(data), int64(len(data)), decode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Load(0); err != nil {
		t.Fatal(err)
	}
	batchBytes, _ := f.CacheBytes()

	b := newBrowser(t)
	b.upload(path)
	b.waitOpened("ahead.arrow")
	last := func() int {
		var n int
		b.eval(`Math.max(...[...document.querySelectorAll('[data-row]')].map(r => +r.dataset.row))`, &n)
		return n
	}
	b.waitFor(`document.querySelector('[data-row="15"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`)
	to0 := last() + 1
	// Rows are read ahead once located: wait for the record batches' row
	// counts (indexing, in the background; slow under load).
	b.waitFor(`document.querySelector('[data-role=num-rows][data-exact=true]') !== null`)
	// Scroll down to row 40 (rows of 84 px); the scroll positions the
	// page then takes are kept for the message of a failed wait.
	b.eval(`(() => {
		const v = document.querySelector('[data-role=rows]');
		window.__tops = [];
		v.addEventListener('scroll', () => window.__tops.push(v.scrollTop));
		v.scrollTop = 40 * 84;
		return true })()`, nil)
	b.waitFor(`document.querySelector('[data-row="40"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`)
	to1 := last() + 1
	// Read: the batches of rows [0, to0) (the first rows) and of
	// [32, to1+16) (the rows drawn from row 40, its overscan rounded to 8,
	// and the 16 rows past them); at least those: the first rows' read
	// ahead too when indexing was done by then, and once the page has
	// measured the rows container (after its first painted frame, which
	// under load may come after to0 was taken) it draws more rows.
	batches := map[int]bool{}
	for r := 0; r < to0; r++ {
		batches[r/per] = true
	}
	for r := 32; r < min(rows, to1+16); r++ {
		batches[r/per] = true
	}
	want := int64(len(batches)) * batchBytes
	// The cache indicator is drawn with the table (reads ahead redraw
	// nothing when they arrive): the focus moving between two cells of
	// row 41 redraws it. The focusin is sent, not left to focus(): a
	// page whose window does not have the focus (headless browsers run
	// side by side) gets no focus events, and nothing redrew.
	if err := b.pollWithin(fmt.Sprintf(`(() => {
		const cells = document.querySelectorAll('[data-row="41"] [data-col]');
		cells[(window.__aheadTurn = (window.__aheadTurn || 0) + 1) %% 2].dispatchEvent(new FocusEvent('focusin', {bubbles: true}));
		return Number(document.querySelector('[data-role=cache]').dataset.bytes) >= %d;
	})()`, want), 30*time.Second); err != nil {
		var seen string
		b.eval(`JSON.stringify({bytes: document.querySelector('[data-role=cache]').dataset.bytes,
			settled: document.querySelector('[data-role=rows]').dataset.settled,
			tops: window.__tops,
			drawn: [...document.querySelectorAll('[data-row]')].map(r => r.dataset.row + (r.hasAttribute('data-loading') ? 'L' : '')).join(' ')})`, &seen)
		t.Fatalf("%v: the cache holds less than the %d bytes of batches %v (to0 %d, to1 %d, a batch %d bytes); the page: %s", err, want, batches, to0, to1, batchBytes, seen)
	}
	// Scrolling on by 8 rows shows rows that were read ahead: none of
	// them shows as loading, and they show their own ids.
	b.eval(`(() => {
		window.__loading = 0;
		new MutationObserver(() => { window.__loading += document.querySelectorAll('[data-row][data-loading]').length })
			.observe(document.querySelector('.rows-body'), {subtree: true, childList: true, attributes: true});
		document.querySelector('[data-role=rows]').scrollTop = 48 * 84;
		return true })()`, nil)
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-row="%d"]:not([data-loading]) [data-field=image] canvas[data-preview=rgb]') !== null`, to1+7))
	var loading int
	b.eval(`window.__loading`, &loading)
	if loading != 0 {
		t.Errorf("rows read ahead showed as loading (%d row mutations with loading rows)", loading)
	}
	var ok bool
	b.eval(`[...document.querySelectorAll('[data-row]:not([data-loading])')].every(r => r.querySelector('[data-field=id]').textContent === r.dataset.row)`, &ok)
	if !ok {
		t.Error("a row shows another row's id")
	}
}
