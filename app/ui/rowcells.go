package ui

import "github.com/tensorview/tensorview/app/summary"

// cellCacheCap is the number of rows whose summarised cells are kept.
const cellCacheCap = 512

// cellCache keeps the summarised cells of the rows drawn lately, their
// previews drawn within one box: it starts over when the box changes
// (another preview size, another pixel ratio) or when it holds more than
// cellCacheCap rows. native tests: rowcells_test.go.
type cellCache struct {
	rows map[int64][]summary.Cell
	box  [2]int // the preview box of the cells kept
}

// get returns row's cells with previews within box: those kept, or those
// summarise returns, then kept.
func (c *cellCache) get(row int64, box [2]int, summarise func() []summary.Cell) []summary.Cell {
	if c.rows == nil || len(c.rows) > cellCacheCap || box != c.box {
		c.rows, c.box = map[int64][]summary.Cell{}, box
	}
	if cells, ok := c.rows[row]; ok {
		return cells
	}
	cells := summarise()
	c.rows[row] = cells
	return cells
}

// clear forgets the cells kept (another file is shown).
func (c *cellCache) clear() { c.rows = nil }
