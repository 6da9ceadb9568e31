package kit

import "testing"

// TestRowCount: the row count's text, a filter's matches once done.
func TestRowCount(t *testing.T) {
	for _, c := range []struct {
		in   RowCount
		want string
		done bool
	}{
		{RowCount{Rows: 64, Exact: true, Matches: -1}, "64", false},
		{RowCount{Rows: 64, Matches: -1}, "≈64", false},
		{RowCount{Rows: 3000000, Exact: true, Filter: true, Found: 1204, Matches: -1}, "1,204… of 3,000,000", false},
		{RowCount{Rows: 3000000, Exact: true, Filter: true, Found: 1204, Matches: 1204}, "1,204 of 3,000,000", true},
		{RowCount{Rows: 2, Exact: true, Filter: true, Matches: 0}, "0 of 2", true},
		{RowCount{Rows: 2, Exact: true, Matches: 2}, "2", false}, // matches without a filter: none
	} {
		if got := c.in.Text(); got != c.want || c.in.Done() != c.done {
			t.Errorf("%+v: %q done %v, want %q done %v", c.in, got, c.in.Done(), c.want, c.done)
		}
	}
}
