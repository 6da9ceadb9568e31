package session

import (
	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/scan"
)

// The inspector's column statistics are the element statistics of the
// inspected column (query.StatsOptions.Elements) over the whole level it
// belongs to, scanned as the column statistics panel's are (RunStats, a
// StartStats effect, StatsReport actions with the job's id). They follow
// the inspector: opening it on another column (or file) forgets those of
// the last one, closing it stops them. They start by themselves for small
// files (AutoElementRows, AutoElementBytes), else on ElementStats.

// The inspector's column statistics start as it opens on a file of at most
// AutoElementRows rows (exactly known) and AutoElementBytes bytes.
const (
	AutoElementRows  = 1000
	AutoElementBytes = 64 << 20
)

// ElementBins is the number of bins of the element histogram.
const ElementBins = 32

// Actions on the inspector's column statistics.
type (
	// ElementStats starts the inspected column's statistics (again).
	ElementStats struct{}
	// ElementStatsCancel stops them; they can be started again.
	ElementStatsCancel struct{}
)

func (ElementStats) sessionAction()       {}
func (ElementStatsCancel) sessionAction() {}

// elements are the inspector's column statistics: of column Stats.Col of
// file, when Stats.Open.
type elements struct {
	Stats
	file *decode.File
}

// Elements is the inspector's column statistics: Open when the inspector
// shows a tensor of a column; Status "" until they start.
func (m *Model) Elements() *Stats { return &m.elems.Stats }

// followInspector keeps the column statistics on the inspector's column:
// another column or file forgets them (stopping their scan), a new one
// starts them if it is small.
func (m *Model) followInspector() []Effect {
	f, col := m.Shown(), -1
	if in := m.loc.State().Inspector; in != nil && f != nil {
		for i, fld := range f.Fields() {
			if fld.Name == in.Field {
				col = i
			}
		}
	}
	if col >= 0 && m.elems.Open && m.elems.file == f && m.elems.Col == col {
		return nil
	}
	m.stopElements()
	m.elems = elements{}
	if col < 0 {
		return nil
	}
	m.elems.Open, m.elems.Col, m.elems.file = true, col, f
	m.elems.X = query.Operand{Column: f.Fields()[col].Name}
	if rows, exact := f.Rows(); autoElements(rows, exact, f.Size) {
		return m.startElements()
	}
	return nil
}

// autoElements reports whether the statistics of a file of rows rows
// (exact: known, not estimated) and size bytes start by themselves.
func autoElements(rows int64, exact bool, size int64) bool {
	return exact && rows <= AutoElementRows && size <= AutoElementBytes
}

// startElements starts the scan of the column statistics shown.
func (m *Model) startElements() []Effect {
	q := m.ShownQuery()
	if !m.elems.Open || m.elems.Job != 0 || q == nil {
		return nil
	}
	m.elems.Sum, m.elems.Err, m.elems.Unread = nil, "", scan.Unread{}
	st, err := query.NewStats(m.elems.X, q.Cols, query.StatsOptions{Elements: true, Bins: ElementBins})
	if err != nil {
		m.elems.Status, m.elems.Err = StatusError, err.Error()
		return nil
	}
	m.elems.Status = StatusRunning
	id, ctx := m.jobs.Start()
	m.elems.Job = id
	return []Effect{StartStats{Job: id, Ctx: ctx, File: m.elems.file, Stats: st}}
}

// stopElements cancels the column statistics' scan under way, if any.
func (m *Model) stopElements() {
	m.jobs.Stop(m.elems.Job)
	m.elems.Job, m.elems.Progress = 0, nil
}
