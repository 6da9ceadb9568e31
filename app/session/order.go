package session

import (
	"context"

	"github.com/tensorview/tensorview/app/query"
)

// The order the rows table shows the file's rows in, in plain Go (no
// browser): after a sort, a filter or both, the grid's position pos shows
// the file's row order.At(pos). Scrolling, spans and the keyboard work on
// positions; whatever reads a row's data (cells, row windows and their
// loads, the inspector's and a nested batch's target, thumbnails) maps a
// position to its file row here, in one place (fileRow). native tests:
// order_test.go.

// rowOrder maps the grid's positions to file rows. nil is the file's own
// order (identity).
type Order interface {
	Len() int64
	At(pos int64) int64
}

// FileRow is the file row shown at position pos of o (pos itself for the
// file's own order).
func FileRow(o Order, pos int64) int64 {
	if o == nil {
		return pos
	}
	return o.At(pos)
}

// PosOf is the position of file row row in o (linear: for the rare jumps
// back to a row, such as leaving a nested record batch), -1 if o does not
// show it.
func PosOf(o Order, row int64) int64 {
	if o == nil {
		return row
	}
	for p := range o.Len() {
		if o.At(p) == row {
			return p
		}
	}
	return -1
}

// permOrder is a query.Perm as a rowOrder: a sort's order, or a filter's
// matches (query.Matches.Perm, file order), whole or as far as the scan has
// found them (a copy of the Perm taken then: later matches are appended
// past its length, never over it).
type permOrder struct{ p query.Perm }

// OrderOf is p as a rowOrder.
func OrderOf(p query.Perm) Order { return permOrder{p} }

func (o permOrder) Len() int64         { return int64(o.p.Len()) }
func (o permOrder) At(pos int64) int64 { return o.p.At(int(pos)) }

// RowList is a list of file rows: 4 bytes a row while the file has fewer
// than 2^32 rows, else 8.
type RowList struct {
	U32 []uint32
	i64 []int64
}

func (l RowList) Len() int64 { return int64(len(l.U32) + len(l.i64)) }

func (l RowList) At(pos int64) int64 {
	if l.i64 != nil {
		return l.i64[pos]
	}
	return int64(l.U32[pos])
}

// paceEvery is how many rows sortedMatches walks between two calls of its
// pacer (as package query's sorts, about a millisecond of the wasm's
// time): each of its passes goes in steps of this many.
const paceEvery = 1 << 16

// SortedMatches is a sort's order of all total rows of a file kept to the
// rows a filter matched (m, ascending): the matches in sorted order. pace
// (may be nil) is called every paceEvery rows of each pass (over the
// matches, then over the order); its error stops it, as ctx's does.
func SortedMatches(ctx context.Context, perm query.Perm, m query.Perm, total int64, pace func() error) (Order, error) {
	step := func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if pace != nil {
			return pace()
		}
		return nil
	}
	in := make([]uint64, (total+63)/64)
	for lo := 0; lo < m.Len(); lo += paceEvery {
		for i := lo; i < min(m.Len(), lo+paceEvery); i++ {
			r := m.At(i)
			in[r/64] |= 1 << (r % 64)
		}
		if err := step(); err != nil {
			return nil, err
		}
	}
	var out RowList
	small := total < 1<<32
	if small {
		out.U32 = make([]uint32, 0, m.Len())
	} else {
		out.i64 = make([]int64, 0, m.Len())
	}
	n := perm.Len()
	for lo := 0; lo < n; lo += paceEvery {
		for i := lo; i < min(n, lo+paceEvery); i++ {
			r := perm.At(i)
			if r < 0 || r >= total || in[r/64]&(1<<(r%64)) == 0 {
				continue
			}
			if small {
				out.U32 = append(out.U32, uint32(r))
			} else {
				out.i64 = append(out.i64, r)
			}
		}
		if err := step(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// OrderRows lists the file rows of o in order.
func OrderRows(o Order) []int64 {
	out := make([]int64, o.Len())
	for p := range out {
		out[p] = o.At(int64(p))
	}
	return out
}

// MatchesOf is a query.Matches of the rows given (ascending).
func MatchesOf(rows ...int64) *query.Matches {
	var m query.Matches
	for _, r := range rows {
		m.Add(r, query.Selection{Rows: []int32{0}})
	}
	return &m
}
