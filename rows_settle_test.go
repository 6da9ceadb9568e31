package main

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/tensorview/tensorview/tensorext"
)

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

// tensorRowsFile writes an IPC file of one record batch: rows of an int64
// "id" column (id(r)) and a uint8 fixed_shape_tensor column named field of
// the given shape and dim_names, element k of row r being value(r, k).
func tensorRowsFile(t *testing.T, name, field string, rows int, shape []int, dims []string, id func(r int) int64, value func(r, k int) uint8) string {
	t.Helper()
	typ, err := tensorext.NewFixedShapeTensorType(arrow.PrimitiveTypes.Uint8, shape, nil, dims)
	if err != nil {
		t.Fatal(err)
	}
	size := 1
	for _, d := range shape {
		size *= d
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}, {Name: field, Type: typ}}, nil)
	ids := array.NewInt64Builder(memory.DefaultAllocator)
	tb := tensorext.NewFixedShapeTensorBuilder(memory.DefaultAllocator, typ)
	vals := make([]uint8, rows*size)
	for r := range rows {
		ids.Append(id(r))
		for k := range size {
			vals[r*size+k] = value(r, k)
		}
	}
	if err := tb.AppendTensors(vals); err != nil {
		t.Fatal(err)
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{ids.NewArray(), tb.NewArray()}, int64(rows))
	defer rec.Release()
	return writeIPCFile(t, name, schema, rec)
}
