package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/colstats"
)

// Column statistics from a column header: the header's button opens the
// statistics panel (colstatspanel.go) of the column, or of the statistic
// a tensor column's header chose (mean first), and scans the whole file
// (or the nested record batch shown) for them (scan.Stats) in a goroutine paced as a query's (query.go), with
// progress and Cancel. One at a time: a new one cancels the one under
// way; the query's own scan goes on beside it. A quick filter chosen in the
// panel is merged into the filter (colstatsplan.go) and applied.

// colStatsPanel is the panel as the Viewer's state has it.
func colStatsPanel(v *Viewer) app.UI {
	s, q := v.model.Stats(), v.session().ShownQuery()
	c := q.Cols[s.Col]
	p := &colstats.ColumnStatsPanel{Col: s.Col, X: s.X, Class: s.Class, Status: s.Status, Progress: s.Progress,
		Sum: s.Sum, Unread: s.Unread, Err: s.Err, QuickErr: s.QuickErr, Filtered: q.Plan.FilterExpr != nil, Filter: q.Plan.Filter}
	p.Rows, _ = v.session().Shown().Rows()
	if c.Tensor || c.Image {
		p.Fns = session.SortStats(c)
	}
	return p
}
