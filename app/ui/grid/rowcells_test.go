//go:build !wasm

package grid

import (
	"testing"

	"github.com/tensorview/tensorview/app/summary"
)

// TestCellCache: a row's cells are summarised once while the preview box
// and the masks drawn stay; another box (preview size, pixel ratio),
// another mask, more than cellCacheCap rows or another file start over.
func TestCellCache(t *testing.T) {
	var c cellCache
	calls := 0
	masks := ""
	get := func(row int64, box [2]int) []summary.Cell {
		return c.get(row, cellKey{box: box, masks: masks}, func() []summary.Cell {
			calls++
			return []summary.Cell{{Text: "row"}}
		})
	}
	small, large := [2]int{54, 38}, [2]int{198, 148}
	for k, step := range []struct {
		row   int64
		box   [2]int
		calls int
	}{
		{1, small, 1},
		{1, small, 1}, // kept
		{2, small, 2},
		{1, large, 3}, // another box: summarised again
		{2, large, 4},
		{1, large, 4},
		{2, small, 5}, // back: the cells at the other box are gone
		{1, small, 6},
	} {
		if cells := get(step.row, step.box); len(cells) != 1 || calls != step.calls {
			t.Errorf("step %d, row %d at %v: %d summaries, want %d", k, step.row, step.box, calls, step.calls)
		}
	}
	c.clear()
	if get(1, small); calls != 7 {
		t.Errorf("after clear: %d summaries, want 7", calls)
	}
	masks = "1:2,"
	if get(1, small); calls != 8 {
		t.Errorf("a mask turned on: %d summaries, want 8", calls)
	}
	if get(1, small); calls != 8 {
		t.Errorf("kept with the mask: %d summaries, want 8", calls)
	}
	masks = ""

	c, calls = cellCache{}, 0
	for row := range int64(cellCacheCap) {
		get(row, small)
	}
	if get(0, small); calls != cellCacheCap {
		t.Errorf("%d rows kept: row 0 summarised again (%d summaries)", cellCacheCap, calls)
	}
	get(cellCacheCap, small) // one more than the cap: kept, until the next get
	if get(0, small); calls != cellCacheCap+2 {
		t.Errorf("over the cap: %d summaries, want %d (started over)", calls, cellCacheCap+2)
	}
}
