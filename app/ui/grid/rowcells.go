package grid

import "github.com/tensorview/tensorview/app/summary"

// cellCacheCap is the number of rows whose summarised cells are kept.
const cellCacheCap = 512

// cellCache keeps the summarised cells of the rows drawn lately, their
// previews drawn alike (cellKey): it starts over when that changes
// (another preview size, another pixel ratio, a mask turned on or off) or
// when it holds more than cellCacheCap rows. native tests:
// rowcells_test.go.
type cellCache struct {
	rows map[int64][]summary.Cell
	key  cellKey // how the cells kept were drawn
}

// cellKey is how a row's cells are drawn: their previews within box (in
// device pixels), with the masks masksKey names blended over them.
type cellKey struct {
	box   [2]int
	masks string
}

// get returns row's cells drawn as key says: those kept, or those
// summarise returns, then kept.
func (c *cellCache) get(row int64, key cellKey, summarise func() []summary.Cell) []summary.Cell {
	if c.rows == nil || len(c.rows) > cellCacheCap || key != c.key {
		c.rows, c.key = map[int64][]summary.Cell{}, key
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
