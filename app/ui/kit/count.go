package kit

import (
	"fmt"

	"github.com/tensorview/tensorview/app/session"
)

// RowCount is a level's row count (the file's, or a nested record
// batch's), or its filter's matches.
type RowCount struct {
	Rows  int64 // estimated until Exact
	Exact bool
	// Query is the sort or filter's status (data-query: running, done,
	// error, cancelled; "" none); a filter's matches so far are Found,
	// Matches once done (-1 otherwise, and without a filter).
	Query   session.ScanStatus
	Filter  bool
	Found   int64
	Matches int64
}

// Done reports whether the count is a filter's matches, known.
func (c RowCount) Done() bool { return c.Filter && c.Matches >= 0 }

// Text is the count: "64", "≈64", "1,204 of 3,000,000", "1,204… of
// 3,000,000" while the filter runs.
func (c RowCount) Text() string {
	switch {
	case c.Done():
		return MatchesText(c.Matches, c.Rows, true)
	case c.Filter:
		return MatchesText(c.Found, c.Rows, false)
	}
	return RowsText(c.Rows, c.Exact)
}

// MatchesText is the row count of a filter's result: "1,204 of 3,000,000"
// once done, "1,204… of 3,000,000" while it still finds matches.
func MatchesText(found, total int64, done bool) string {
	if done {
		return session.GroupDigits(found) + " of " + session.GroupDigits(total)
	}
	return session.GroupDigits(found) + "… of " + session.GroupDigits(total)
}

// RowsText writes a row count, "≈" marking an estimate.
func RowsText(n int64, exact bool) string {
	if exact {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("≈%d", n)
}
