//go:build !wasm

package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestAppShell opens the main sample at 1280×800, 360×640 and 2560×1440: the
// page fills the window and never scrolls, the first row's preview is in
// view without scrolling, the rows scroll inside their own box; the schema
// panel opens and closes with its button, and stays open across a reload.
func TestAppShell(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	b := newBrowser(t)
	for _, size := range [][2]int64{{1280, 800}, {360, 640}, {2560, 1440}} {
		b.run(emulation.SetDeviceMetricsOverride(size[0], size[1], 1, size[0] < 600))
		b.run(chromedp.Navigate(b.base))
		b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
		b.openSample("js_big.arrow")
		b.waitOpened("js_big.arrow")
		var page struct {
			ScrollW, ScrollH, W, H  int
			PreviewBottom, RowsView float64
		}
		b.eval(`(() => { const d = document.scrollingElement, c = document.querySelector('[data-row="0"] canvas[data-preview]');
			return {ScrollW: d.scrollWidth, ScrollH: d.scrollHeight, W: innerWidth, H: innerHeight,
				PreviewBottom: c ? c.getBoundingClientRect().bottom : 1e9,
				RowsView: document.querySelector('[data-role=rows]').getBoundingClientRect().height} })()`, &page)
		if page.ScrollW > page.W || page.ScrollH > page.H {
			t.Errorf("%v: the page scrolls: %d×%d in a %d×%d window", size, page.ScrollW, page.ScrollH, page.W, page.H)
		}
		if page.PreviewBottom > float64(page.H) {
			t.Errorf("%v: the first row's preview ends at %.0f px, below the %d px window", size, page.PreviewBottom, page.H)
		}
		if page.RowsView < 120 {
			t.Errorf("%v: the rows get %.0f px", size, page.RowsView)
		}
		if size[0] < 600 {
			// The grid scrolls sideways inside its box; the row numbers stay.
			var pos struct{ Index, View, ScrollLeft float64 }
			b.eval(`(() => { const v = document.querySelector('[data-role=rows]'); v.scrollLeft = 300;
				return {Index: document.querySelector('[data-row="0"] .row-index').getBoundingClientRect().left,
					View: v.getBoundingClientRect().left, ScrollLeft: v.scrollLeft} })()`, &pos)
			if pos.ScrollLeft < 300 || pos.Index < pos.View || pos.Index > pos.View+2 {
				t.Errorf("%v: scrolled %v px sideways, row number at %v px, the grid at %v px", size, pos.ScrollLeft, pos.Index, pos.View)
			}
		}
		b.screenshot(fmt.Sprintf("shell-%dx%d", size[0], size[1]))
	}
	b.run(emulation.SetDeviceMetricsOverride(1280, 800, 1, false))
	panelShown := func() bool {
		var shown bool
		b.eval(`getComputedStyle(document.querySelector('[data-role=schema-panel]')).display !== 'none'`, &shown)
		return shown
	}
	if panelShown() {
		t.Error("the schema panel is open before it was asked for")
	}
	b.run(chromedp.Click(`[data-action=toggle-schema]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=toggle-schema]').getAttribute('aria-expanded') === 'true'`)
	if !panelShown() {
		t.Error("the schema panel did not open")
	}
	b.screenshot("shell-schema")
	b.run(chromedp.Reload()) // the address holds the sample's URL: it opens again
	b.waitOpened("js_big.arrow")
	if !panelShown() {
		t.Error("the schema panel's state was not remembered across a reload")
	}
	b.run(chromedp.Click(`[data-action=close-schema]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-action=toggle-schema]').getAttribute('aria-expanded') === 'false'`)
	if panelShown() {
		t.Error("the schema panel did not close")
	}
}
