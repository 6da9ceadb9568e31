//go:build !wasm

package e2e

import (
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/tensorview/tensorview/internal/testkit"
)

// cellSel is the selector of a tensor cell of compare.arrow.
func cellSel(field string, row int) string {
	return fmt.Sprintf(`[data-row="%d"] [data-tensor][data-field=%q]`, row, field)
}

// ctrlClick clicks the middle of the element sel with Ctrl held.
func (b *browser) ctrlClick(sel string) {
	b.t.Helper()
	var pt struct{ X, Y float64 }
	b.eval(fmt.Sprintf(`(r => ({X: r.left + r.width / 2, Y: r.top + r.height / 2}))(document.querySelector(%q).getBoundingClientRect())`, sel), &pt)
	b.run(chromedp.MouseClickXY(pt.X, pt.Y, chromedp.ButtonModifiers(input.ModifierCtrl)))
}

// has reports whether an element matches sel.
func (b *browser) has(sel string) bool {
	b.t.Helper()
	var ok bool
	b.eval(fmt.Sprintf(`document.querySelector(%q) !== null`, sel), &ok)
	return ok
}

// selection is what the grid says is selected: the selection bar's count,
// status and Compare button (its text: its accessible name), and the
// cells aria-selected, as "field@row" in page order.
type selection struct {
	Count           string
	Status, Compare string
	Selected        []string
}

func (b *browser) selection() selection {
	b.t.Helper()
	var s selection
	b.eval(`(bar => ({Count: bar.dataset.count, Status: bar.querySelector('[role=status]').textContent,
		Compare: bar.querySelector('[data-action=compare-selected]')?.textContent ?? '',
		Selected: [...document.querySelectorAll('[data-role=rows] [aria-selected=true]')].map(c => c.dataset.field + '@' + c.closest('[data-row]').dataset.row)}))(
		document.querySelector('[data-role=selection]'))`, &s)
	return s
}

// inspectorLink waits for the inspector on field, row with its address
// settled, and returns the address's parameters.
func (b *browser) inspectorLink(field string, row int) url.Values {
	b.t.Helper()
	b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=inspector][data-field=%q][data-row="%d"]') !== null
		&& document.documentElement.dataset.address === 'settled' && new URL(location.href).searchParams.get('vs') !== null`, field, row))
	var search string
	b.eval(`location.search`, &search)
	q, err := url.ParseQuery(search[1:])
	if err != nil {
		b.t.Fatalf("address %q: %v", search, err)
	}
	return q
}

// TestCompareFromGrid selects two cells of compare.arrow in the grid
// (Ctrl+click, or Shift+Space on the focused cell) and compares them: the
// cells aria-selected, the bar naming both; axe in both themes with a
// selection shown; Compare opens the inspector on the first with vs= the
// second and the statistics gen_compare.mjs computed, for two columns of
// a row (target − prediction), a column in two rows (target row 0 − row 1)
// and another column of another row (target row 2, equal to row 0, −
// prediction row 0, by keyboard); Ctrl+click again and Escape unselect;
// another shape and a null side open with the comparison's message; the
// bar within a phone's width.
func TestCompareFromGrid(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	exp := testkit.ReadCompared(t)
	b := newBrowser(t)
	b.run(chromedp.Navigate(b.base + "?url=../testdata/compare.arrow"))
	b.waitOpened("compare.arrow")

	stats := func(what, key, tol, maxIndex string) {
		t.Helper()
		b.waitFor(`document.querySelector('[data-role=diff-stats]') !== null`)
		e := exp.Diffs[key]
		want := diffStats{MaxAbs: exactText(e.MaxAbs), MeanAbs: exactText(e.MeanAbs), RMSE: exactText(e.RMSE),
			Differing: strconv.Itoa(e.Differing[tol]), MaxIndex: maxIndex, Tol: "0"}
		got := b.diffStats()
		got.PSNR = ""
		if got != want {
			t.Errorf("%s: diff stats %+v, want %+v (%s)", what, got, want, key)
		}
	}
	closeInspector := func(field string, row int) {
		t.Helper()
		b.run(chromedp.KeyEvent(kb.Escape))
		// The focus is back on the first cell compared.
		b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=inspector]') === null && document.activeElement?.matches(%q)`, cellSel(field, row)))
	}

	// Two columns of a row, by Ctrl+click.
	b.ctrlClick(cellSel("target", 0))
	b.waitFor(`document.querySelector('[data-role=selection]')?.dataset.count === '1'`)
	if got, want := b.selection(), (selection{Count: "1", Selected: []string{"target@0"},
		Status: "target, row 0 selected: select another tensor cell (Ctrl+click or Shift+Space) to compare"}); !reflect.DeepEqual(got, want) {
		t.Errorf("one selected: %+v, want %+v", got, want)
	}
	if b.has(`[data-role=inspector]`) {
		t.Errorf("Ctrl+click opened the inspector")
	}
	b.ctrlClick(cellSel("prediction", 0))
	b.waitFor(`document.querySelector('[data-role=selection]')?.dataset.count === '2'`)
	if got, want := b.selection(), (selection{Count: "2", Status: "2 cells selected", Compare: "Compare target, row 0 with prediction, row 0",
		Selected: []string{"target@0", "prediction@0"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("two selected: %+v, want %+v", got, want)
	}
	var multi string
	b.eval(`document.querySelector('[data-role=rows]').getAttribute('aria-multiselectable')`, &multi)
	if multi != "true" {
		t.Errorf("the grid's aria-multiselectable %q", multi)
	}
	for _, scheme := range []string{"light", "dark"} {
		b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}))
		for _, v := range b.axe() {
			t.Errorf("%s: axe %s (%s): %s at %v", scheme, v.ID, v.Impact, v.Help, v.Nodes)
		}
		b.screenshot("grid-selection-" + scheme)
	}
	b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}))
	b.run(chromedp.Click(`[data-action=compare-selected]`, chromedp.ByQuery))
	q := b.inspectorLink("target", 0)
	if q.Get("f") != "target" || q.Get("r") != "0" || q.Get("vs") != "prediction" {
		t.Errorf("link %v: want f=target, r=0, vs=prediction", q)
	}
	stats("target with prediction", "target@0 - prediction@0", "0", "3,7,4")
	b.screenshot("grid-compare-opened")
	closeInspector("target", 0)
	if s := b.selection(); s.Count != "0" || len(s.Selected) != 0 {
		t.Errorf("after comparing: selection %+v, want none", s)
	}

	// A column in two rows.
	b.ctrlClick(cellSel("target", 0))
	b.ctrlClick(cellSel("target", 1))
	b.waitFor(`document.querySelector('[data-role=selection]')?.dataset.count === '2'`)
	if s := b.selection(); s.Compare != "Compare target, row 0 with target, row 1" {
		t.Errorf("target in two rows: %+v", s)
	}
	b.run(chromedp.Click(`[data-action=compare-selected]`, chromedp.ByQuery))
	if q := b.inspectorLink("target", 0); q.Get("vs") != "target@1" {
		t.Errorf("link %v: want vs=target@1", q)
	}
	stats("target rows 0 and 1", "target@0 - target@1", "0", "4,0,0")
	closeInspector("target", 0)

	// Ctrl+click again unselects; Escape in the grid unselects all.
	b.ctrlClick(cellSel("image", 1))
	b.ctrlClick(cellSel("reconstruction", 1))
	b.waitFor(`document.querySelector('[data-role=selection]')?.dataset.count === '2'`)
	b.ctrlClick(cellSel("image", 1))
	b.waitFor(`document.querySelector('[data-role=selection]')?.dataset.count === '1'`)
	if s := b.selection(); !reflect.DeepEqual(s.Selected, []string{"reconstruction@1"}) {
		t.Errorf("after unselecting image: %+v", s)
	}
	b.run(chromedp.KeyEvent(kb.Escape))
	b.waitFor(`document.querySelector('[data-role=selection]')?.dataset.count === '0' && document.querySelector('[data-role=rows] [aria-selected=true]') === null`)

	// By keyboard: another column of another row. Target row 2 holds row
	// 0's values (gen_compare.mjs), so target row 2 − prediction row 0 is
	// target − prediction of row 0.
	if !reflect.DeepEqual(exp.Values.Target[2], exp.Values.Target[0]) {
		t.Fatal("compare_expected.json: target row 2 is not row 0")
	}
	shiftSpace := chromedp.KeyEvent(" ", chromedp.KeyModifiers(input.ModifierShift))
	b.run(chromedp.Focus(cellSel("target", 2), chromedp.ByQuery), shiftSpace)
	b.waitFor(`document.querySelector('[data-role=selection]')?.dataset.count === '1'`)
	b.run(chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.ArrowUp), chromedp.KeyEvent(kb.ArrowRight))
	b.waitFor(fmt.Sprintf(`document.activeElement?.matches(%q)`, cellSel("prediction", 0)))
	b.run(shiftSpace)
	b.waitFor(`document.querySelector('[data-role=selection]')?.dataset.count === '2'`)
	if got, want := b.selection(), (selection{Count: "2", Status: "2 cells selected", Compare: "Compare target, row 2 with prediction, row 0",
		Selected: []string{"prediction@0", "target@2"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("by keyboard: %+v, want %+v", got, want)
	}
	if b.has(`[data-role=inspector]`) {
		t.Errorf("Shift+Space opened the inspector")
	}
	b.run(chromedp.Focus(`[data-action=compare-selected]`, chromedp.ByQuery), chromedp.KeyEvent(kb.Enter))
	if q := b.inspectorLink("target", 2); q.Get("vs") != "prediction@0" {
		t.Errorf("link %v: want vs=prediction@0", q)
	}
	stats("target row 2 with prediction row 0", "target@0 - prediction@0", "0", "3,7,4")
	var caption string
	b.eval(`document.querySelector('[data-side=b] .pane-caption').textContent`, &caption)
	if caption != "B: prediction, row 0" {
		t.Errorf("B's caption %q", caption)
	}
	closeInspector("target", 2)

	// Pairs that cannot be compared open with the comparison's message:
	// another shape; a null first cell, compared as B.
	for _, c := range []struct {
		first, second [2]string
		field, row    string
		want          string
	}{
		{[2]string{"target", "0"}, [2]string{"thumb", "0"}, "target", "0",
			"Cannot compare target, row 0 (float32 5×12×16) with thumb, row 0 (float32 12×16): their shapes differ."},
		{[2]string{"prediction", "2"}, [2]string{"target", "1"}, "target", "1",
			"Cannot compare target, row 1 (float32 5×12×16) with prediction, row 2: prediction, row 2 is null."},
	} {
		r1, _ := strconv.Atoi(c.first[1])
		r2, _ := strconv.Atoi(c.second[1])
		b.ctrlClick(cellSel(c.first[0], r1))
		b.ctrlClick(cellSel(c.second[0], r2))
		b.waitFor(`document.querySelector('[data-role=selection]')?.dataset.count === '2'`)
		b.run(chromedp.Click(`[data-action=compare-selected]`, chromedp.ByQuery))
		b.waitFor(fmt.Sprintf(`document.querySelector('[data-role=inspector][data-field=%q][data-row=%q] [data-role=compare-note]')?.textContent === %q`, c.field, c.row, c.want))
		b.screenshot("grid-compare-mismatch-" + c.first[0])
		row, _ := strconv.Atoi(c.row)
		closeInspector(c.field, row)
	}

	// On a phone the bar wraps within the window.
	b.ctrlClick(cellSel("image", 0))
	b.ctrlClick(cellSel("reconstruction", 0))
	b.waitFor(`document.querySelector('[data-role=selection]')?.dataset.count === '2'`)
	b.run(emulation.SetDeviceMetricsOverride(360, 740, 1, true))
	b.waitFor(`(r => r !== undefined && r.width > 0 && r.right <= 360)(document.querySelector('[data-action=compare-selected]')?.getBoundingClientRect())`)
	b.screenshot("grid-selection-360")
}
