//go:build !wasm

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestNestedBatches opens the arrow.turtle fixture (written by apache-arrow
// JS, two levels deep) and walks it as a person would: the nested cells
// show their labels, rows and columns, or their row's error; opening one
// shows its batch in the same grid with a breadcrumb, its image tensors
// with exact preview pixels and the inspector; a second level inside it;
// the breadcrumb goes back out.
func TestNestedBatches(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	data, err := os.ReadFile(filepath.Join("..", "testdata", "turtle_expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Rows []struct {
			Runs *struct {
				Label, Error string
				Batch        *struct {
					NumRows int `json:"num_rows"`
					Image   []struct {
						Shape  []int
						Values []int
					}
					Sub []*struct {
						Label string
						Batch *struct{ K, V []float64 }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	b.upload(filepath.Join("..", "testdata", "turtle_nested.arrow"))
	b.waitOpened("turtle_nested.arrow")
	for r, w := range want.Rows {
		var c struct {
			Nested, Null  bool
			Rows, Columns string
			Text, Err     string
		}
		b.eval(fmt.Sprintf(`(c => ({Nested: c.hasAttribute('data-nested'), Null: c.hasAttribute('data-null'), Rows: c.dataset.rows || '',
			Columns: c.dataset.columns || '', Text: c.textContent, Err: c.dataset.cellError || ''}))(document.querySelector('[data-row="%d"] [data-field=runs]'))`, r), &c)
		switch {
		case w.Runs == nil:
			if !c.Null {
				t.Errorf("row %d: %+v, want null", r, c)
			}
		case w.Runs.Error != "":
			if c.Err == "" {
				t.Errorf("row %d: %+v, want the row's error (%s)", r, c, w.Runs.Error)
			}
		case !c.Nested || c.Rows != fmt.Sprint(w.Runs.Batch.NumRows) || c.Columns != "3" || !strings.Contains(c.Text, w.Runs.Label):
			t.Errorf("row %d: %+v, want %q with %d rows and 3 columns", r, c, w.Runs.Label, w.Runs.Batch.NumRows)
		}
	}

	crumbs := func() []string {
		var out []string
		b.eval(`[...document.querySelectorAll('[data-role=breadcrumb] li')].map(l => l.textContent)`, &out)
		return out
	}
	// Row 0 ("sunny"): its batch in the grid.
	sunny := want.Rows[0].Runs.Batch
	b.run(chromedp.Click(`[data-row="0"] [data-nested][data-field=runs]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=breadcrumb]') !== null && document.querySelector('[data-row] [data-field=image]') !== null`)
	if got := crumbs(); !slices.Equal(got, []string{"turtle_nested.arrow", "runs, row 0: sunny"}) {
		t.Errorf("breadcrumb %q", got)
	}
	for r, img := range sunny.Image {
		w, h, pix := b.canvas(r, "image")
		if w != img.Shape[1] || h != img.Shape[0] {
			t.Fatalf("inner row %d: preview %dx%d, want %v", r, w, h, img.Shape)
		}
		for p := 0; p < w*h; p++ {
			if got, exp := pix[p*4:p*4+3], img.Values[p*3:p*3+3]; !slices.Equal(got, exp) {
				t.Errorf("inner row %d pixel %d = %v, want %v", r, p, got, exp)
				break
			}
		}
	}
	b.screenshot("nested-level1")

	// The inspector inside the nested batch.
	lo, hi := slices.Min(sunny.Image[1].Values), slices.Max(sunny.Image[1].Values)
	b.run(chromedp.Click(`[data-row="1"] [data-tensor][data-field=image]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=inspector][data-field=image] [data-role=stats]') !== null`)
	var stats struct{ Min, Max string }
	b.eval(`(s => ({Min: s.dataset.min, Max: s.dataset.max}))(document.querySelector('[data-role=stats]'))`, &stats)
	if stats.Min != fmt.Sprint(lo) || stats.Max != fmt.Sprint(hi) {
		t.Errorf("inspector on the nested image: %+v, want %d..%d", stats, lo, hi)
	}
	b.run(chromedp.KeyEvent("\x1b"))
	b.waitFor(`document.querySelector('[data-role=inspector]') === null`)

	// A second level: row 0's sub batch.
	leaf := sunny.Sub[0]
	b.run(chromedp.Click(`[data-row="0"] [data-nested][data-field=sub]`, chromedp.ByQuery))
	b.waitFor(`document.querySelectorAll('[data-role=breadcrumb] li').length === 3 && document.querySelector('[data-row] [data-field=k]') !== null`)
	if got := crumbs(); len(got) != 3 || got[2] != "sub, row 0: "+leaf.Label {
		t.Errorf("breadcrumb %q", got)
	}
	for r := range leaf.Batch.K {
		var k, v string
		b.eval(fmt.Sprintf(`document.querySelector('[data-row="%d"] [data-field=k]').textContent`, r), &k)
		b.eval(fmt.Sprintf(`document.querySelector('[data-row="%d"] [data-field=v]').textContent`, r), &v)
		if k != fmt.Sprint(leaf.Batch.K[r]) || v != fmt.Sprint(leaf.Batch.V[r]) {
			t.Errorf("leaf row %d: k %s v %s, want %v %v", r, k, v, leaf.Batch.K[r], leaf.Batch.V[r])
		}
	}
	b.screenshot("nested-level2")
	for _, v := range b.axe() {
		t.Errorf("nested batch with a breadcrumb: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}

	// Back to the file.
	b.run(chromedp.Click(`[data-role=breadcrumb] button[data-level="0"]`, chromedp.ByQuery))
	b.waitFor(`document.querySelector('[data-role=breadcrumb]') === null && document.querySelector('[data-row="0"] [data-nested][data-field=runs]') !== null`)

	// Dark, on a phone: the breadcrumb's links keep their contrast.
	b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}),
		chromedp.EmulateViewport(360, 640))
	b.eval(`document.querySelector('[data-row="0"] [data-nested][data-field=runs]').click(), true`, nil)
	b.waitFor(`document.querySelector('[data-role=breadcrumb]') !== null`)
	b.screenshot("nested-dark-360")
	for _, v := range b.axe() {
		t.Errorf("nested batch, dark, 360 px: axe %s (%s): %s at %v", v.ID, v.Impact, v.Help, v.Nodes)
	}
}
