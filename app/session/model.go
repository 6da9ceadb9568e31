package session

import (
	"context"
	"errors"
	"fmt"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/query"
	"github.com/tensorview/tensorview/app/viewstate"
)

// Model is the one owner of what the page shows of a file: its levels
// (the file, then each nested record batch opened), each with its query,
// first row and masks; the column statistics panel; the view state and
// the address (a viewstate.Model inside, whose history rules it keeps);
// and the background work on them (Jobs). The page tells it what happened
// (Do with a typed Action) and carries out what it answers (typed
// Effects): history writes, scans to run, elements to focus. A job's
// reports come back as actions carrying its JobID; those of a job stopped
// since are dropped here.
//
// Entry points: NewModel, Model.Do, Model.State, Model.Levels,
// Model.Stats, Model.Elements, Model.Masks, Model.Settled.
type Model struct {
	loc    *viewstate.Model
	jobs   Jobs
	levels Levels
	stats  Stats
	elems  elements // the inspector's column statistics (elements.go)
}

// NewModel is the model of a page loaded at address (the URL its links
// resolve against), with no file open.
func NewModel(address string) *Model {
	return &Model{loc: viewstate.NewModel(address)}
}

// State is the view state, as the address says it.
func (m *Model) State() viewstate.State { return m.loc.State() }

// Settled reports whether the address shows the current view (no write
// scheduled, no traversal of the model's own under way).
func (m *Model) Settled() bool { return m.loc.Settled() }

// Levels are the levels open; the grid shows the last one. The page
// reads them; only Do changes them.
func (m *Model) Levels() *Levels { return &m.levels }

// Stats is the column statistics panel's state.
func (m *Model) Stats() *Stats { return &m.stats }

// Jobs is the background work under way, for the page's own jobs
// (indexing, reads) that report outside the model.
func (m *Model) Jobs() *Jobs { return &m.jobs }

// Action is what the user, the browser or a job did; see Model.Do.
type Action interface{ sessionAction() }

// Effect is what the page must do for the Model, in order.
type Effect interface{ sessionEffect() }

// Actions.
type (
	// Address passes a view state action (a link, a popstate, the first
	// row in view, the inspector's settings) to the address's rules.
	Address struct{ A viewstate.Action }
	// Opened: File is the file shown now, read from URL ("" for a local
	// file); Schema is the schema panel's remembered state. A link's sort
	// and filter are applied to it.
	Opened struct {
		File   *decode.File
		URL    string
		Schema bool
	}
	// Filter applies the query bar's text to the level shown ("" clears
	// the filter), keeping its sort.
	Filter struct{ Text string }
	// SortBy applies a column header's sort: by its values (Fn ""), or a
	// statistic of its tensors (Fn "mean", …); Clear sorts by none. It
	// keeps the filter.
	SortBy struct {
		Col   int
		Fn    string
		Clear bool
	}
	// QueryCancel stops the query under way (its progress bar's Cancel).
	QueryCancel struct{}
	// QueryClear drops the sort, the filter and the query bar's text.
	QueryClear struct{}
	// ScanReport is an event of job Job, the scan of Query.
	ScanReport struct {
		Job   JobID
		Query *Query
		Event ScanEvent
	}
	// OpenStats opens the statistics panel on column Col of the level
	// shown (of a tensor column, on its statistic Fn: "mean" when "").
	OpenStats struct {
		Col int
		Fn  string
	}
	// StatsReport is an event of job Job, a statistics scan.
	StatsReport struct {
		Job   JobID
		Event StatsEvent
	}
	// StatsCancel stops the statistics under way; the panel stays open.
	StatsCancel struct{}
	// StatsClose closes the panel.
	StatsClose struct{}
	// QuickFilter merges the panel's quick filter into the filter and
	// applies it.
	QuickFilter struct{ Ask QuickAsk }
	// OpenNested shows the nested record batch of a cell of the level
	// shown, below it.
	OpenNested struct {
		Col int
		Row int64
	}
	// Crumb shows level Level again (0: the file), closing those below.
	Crumb struct{ Level int }
	// ToggleMask turns the mask Key over the thumbnails of the level
	// shown on or off.
	ToggleMask struct{ Key string }
	// Inspect opens the inspector on cell (Col, Row) of the level shown.
	Inspect struct {
		Col int
		Row int64
	}
)

func (Address) sessionAction()     {}
func (Opened) sessionAction()      {}
func (Filter) sessionAction()      {}
func (SortBy) sessionAction()      {}
func (QueryCancel) sessionAction() {}
func (QueryClear) sessionAction()  {}
func (ScanReport) sessionAction()  {}
func (OpenStats) sessionAction()   {}
func (StatsReport) sessionAction() {}
func (StatsCancel) sessionAction() {}
func (StatsClose) sessionAction()  {}
func (QuickFilter) sessionAction() {}
func (OpenNested) sessionAction()  {}
func (Crumb) sessionAction()       {}
func (ToggleMask) sessionAction()  {}
func (Inspect) sessionAction()     {}

// Effects.
type (
	// History is an effect of the address's rules (a history write, a
	// timer, the embed message, a file to open).
	History struct{ E viewstate.Effect }
	// StartScan runs a query's scan: RunScan(Ctx, File, Plan, …), its
	// events reported as ScanReport{Job, Query, …}.
	StartScan struct {
		Job   JobID
		Ctx   context.Context
		Query *Query
		File  *decode.File
		Plan  Plan
	}
	// StartStats runs a statistics scan: RunStats(Ctx, File, Stats, …),
	// its events reported as StatsReport{Job, …}.
	StartStats struct {
		Job   JobID
		Ctx   context.Context
		File  *decode.File
		Stats *query.Stats
	}
	// Focus moves the keyboard focus to the element Selector names once
	// the page has drawn the change.
	Focus struct{ Selector string }
	// Alert says that What could not be shown, for Text; an empty Alert
	// removes the alert.
	Alert struct{ What, Text string }
)

func (History) sessionEffect()    {}
func (StartScan) sessionEffect()  {}
func (StartStats) sessionEffect() {}
func (Focus) sessionEffect()      {}
func (Alert) sessionEffect()      {}

// Do applies a and answers what the page must do, in order.
func (m *Model) Do(a Action) []Effect {
	var out []Effect
	switch a := a.(type) {
	case Address:
		out = m.address(a.A)
	case Opened:
		out = m.opened(a)
	case Filter:
		if q := m.ShownQuery(); q != nil {
			q.Input = a.Text
			out = m.applyQuery(q.Plan.Sort, a.Text, false)
		}
	case SortBy:
		out = m.sortBy(a)
	case QueryCancel:
		out = m.dropQuery(StatusCancelled)
	case QueryClear:
		if q := m.ShownQuery(); q != nil {
			q.Input = ""
		}
		out = m.dropQuery("")
	case ScanReport:
		m.scanReport(a)
	case OpenStats:
		out = m.openStats(a)
	case StatsReport:
		m.statsReport(a)
	case ElementStats:
		out = m.startElements()
	case ElementStatsCancel:
		if m.elems.Job != 0 {
			m.stopElements()
			m.elems.Status = StatusCancelled
		}
	case StatsCancel:
		m.stopStats()
		m.stats.Status = StatusCancelled
	case StatsClose:
		col := m.stats.Col
		m.closeStats()
		out = []Effect{Focus{statsButton(col)}}
	case QuickFilter:
		out = m.quickFilter(a.Ask)
	case OpenNested:
		out = m.openNested(a)
	case Crumb:
		out = m.crumb(a.Level)
	case ToggleMask:
		out = m.toggleMask(a.Key)
	case Inspect:
		if f := m.Shown(); f != nil && a.Col >= 0 && a.Col < len(f.Fields()) {
			out = m.address(viewstate.OpenInspector{Field: f.Fields()[a.Col].Name, Row: a.Row})
		}
	}
	return append(out, m.followInspector()...)
}

// statsReport shows a report of a live statistics job: the panel's, or
// the inspector's column statistics'.
func (m *Model) statsReport(a StatsReport) {
	if !m.jobs.Live(a.Job) {
		return
	}
	s := &m.stats
	if a.Job == m.elems.Job {
		s = &m.elems.Stats
	}
	if s.Job == a.Job && s.Apply(a.Event) {
		m.jobs.Stop(a.Job)
		s.Job = 0
	}
}

// address applies a to the view state: a history entry whose nested
// levels are fewer than those open closes the levels below.
func (m *Model) address(a viewstate.Action) []Effect {
	var out []Effect
	for _, e := range m.loc.Do(a) {
		out = append(out, History{e})
	}
	if n := len(m.loc.State().Nested); n < m.levels.Depth() {
		m.closeNested(n) // a history entry's inspector is on the file's fields
	}
	return out
}

// Shown is the file of the level Shown, nil before one is open.
func (m *Model) Shown() *decode.File {
	if l := m.levels.Shown(); l != nil {
		return l.File
	}
	return nil
}

// ShownQuery is the query of the level shown, nil before a file is open.
func (m *Model) ShownQuery() *Query {
	if l := m.levels.Shown(); l != nil {
		return l.Query
	}
	return nil
}

// opened makes f level 0, tells the address, and applies a link's sort
// and filter (its first row a position in their result).
func (m *Model) opened(a Opened) []Effect {
	m.closeStats()
	m.levels.Reset(&m.jobs, a.File)
	out := m.address(viewstate.FileOpened{Name: a.File.Name, URL: a.URL, Schema: a.Schema, Has: fileHas(a.File)})
	st := m.loc.State()
	m.levels.At(0).Start = st.Row
	if st.Sort != "" || st.Filter != "" {
		m.levels.At(0).Query.Input = st.Filter
		out = append(out, m.applyQuery(st.Sort, st.Filter, true)...)
	}
	return out
}

// fileHas reports whether f has a field named field and a row row (its
// row count as known now: estimated until indexed).
func fileHas(f *decode.File) func(string, int64) bool {
	return func(field string, row int64) bool {
		rows, _ := f.Rows()
		for _, fld := range f.Fields() {
			if fld.Name == field {
				return row >= 0 && row < rows
			}
		}
		return false
	}
}

// sortBy applies a column header's sort to the level shown.
func (m *Model) sortBy(a SortBy) []Effect {
	q := m.ShownQuery()
	if q == nil || a.Col < 0 || a.Col >= len(q.Cols) {
		return nil
	}
	key := ""
	if !a.Clear {
		key = NextSort(q.Plan, q.Cols, a.Col, a.Fn)
	}
	return m.applyQuery(key, q.Plan.Filter, false)
}

// applyQuery compiles sortText and filterText against the columns of the
// level shown and starts their scan: a text that does not compile shows
// its error and changes nothing else. The file's query goes in the
// address (a nested level's does not); a link's (link) is there already,
// with its first row.
func (m *Model) applyQuery(sortText, filterText string, link bool) []Effect {
	f, q := m.Shown(), m.ShownQuery()
	plan, qerr := PlanQuery(q.Cols, sortText, filterText)
	if qerr != nil {
		q.Err, q.Status = qerr, StatusError
		return nil
	}
	q.Stop(&m.jobs)
	q.Err, q.Note = nil, ""
	q.Plan, q.Order, q.Matches, q.Found, q.Skipped = plan, nil, -1, 0, 0
	q.Gen++
	var out []Effect
	if !link {
		m.levels.Shown().Start = 0
		if m.levels.Depth() == 0 {
			out = m.address(viewstate.SetQuery{Sort: plan.Sort, Filter: plan.Filter})
		}
	}
	if plan.None() {
		q.Status = ""
		return out
	}
	if plan.FilterExpr != nil {
		q.Order = RowList{} // the matches come in as found
	}
	q.Status = StatusRunning
	id, ctx := m.jobs.Start()
	q.Job = id
	return append(out, StartScan{Job: id, Ctx: ctx, Query: q, File: f, Plan: plan})
}

// dropQuery stops the query of the level shown and shows all its rows in
// their order, with status; the address forgets the file's query.
func (m *Model) dropQuery(status ScanStatus) []Effect {
	q := m.ShownQuery()
	if q == nil {
		return nil
	}
	q.Stop(&m.jobs)
	q.Plan, q.Order, q.Matches, q.Status = Plan{SortCol: -1}, nil, -1, status
	q.Err, q.Note = nil, ""
	q.Gen++
	m.levels.Shown().Start = 0
	if m.levels.Depth() == 0 {
		return m.address(viewstate.SetQuery{})
	}
	return nil
}

// scanReport shows a report of a query's scan, unless its job was stopped
// since (another query, the level closed, another file).
func (m *Model) scanReport(a ScanReport) {
	if !m.jobs.Live(a.Job) || !a.Query.Apply(a.Event) {
		return
	}
	m.jobs.Stop(a.Job)
	top := m.levels.At(0)
	if _, done := a.Event.(ScanDone); done && m.levels.Depth() == 0 && a.Query == top.Query && top.Start > 0 {
		a.Query.Gen++ // a link's first row, in the result now known
	}
}

// openStats opens the statistics panel on a column of the level shown and
// starts their scan; the panel takes the focus when it opens.
func (m *Model) openStats(a OpenStats) []Effect {
	q := m.ShownQuery()
	if q == nil || a.Col < 0 || a.Col >= len(q.Cols) {
		return nil
	}
	c := q.Cols[a.Col]
	x := query.Operand{Column: c.Name}
	if c.Tensor || c.Image {
		x.Func = a.Fn
		if x.Func == "" {
			x.Func = "mean"
		}
	}
	focus := !m.stats.Open
	m.closeStats()
	m.stats.Open, m.stats.Col, m.stats.X, m.stats.Class = true, a.Col, x, query.ClassOf(x, q.Cols)
	var out []Effect
	if st, err := query.NewStats(x, q.Cols, query.StatsOptions{}); err != nil {
		m.stats.Status, m.stats.Err = StatusError, err.Error()
	} else {
		m.stats.Status = StatusRunning
		id, ctx := m.jobs.Start()
		m.stats.Job = id
		out = append(out, StartStats{Job: id, Ctx: ctx, File: m.Shown(), Stats: st})
	}
	if focus {
		out = append(out, Focus{"[data-role=column-stats]"})
	}
	return out
}

// stopStats cancels the statistics' scan under way, if any.
func (m *Model) stopStats() {
	m.jobs.Stop(m.stats.Job)
	m.stats.Job, m.stats.Progress = 0, nil
}

// closeStats closes the panel and forgets its statistics.
func (m *Model) closeStats() {
	m.stopStats()
	m.stats = Stats{}
}

// statsButton selects column col's statistics button.
func statsButton(col int) string {
	return fmt.Sprintf(`[role=columnheader][data-col="%d"] [data-action=column-stats]`, col)
}

// quickFilter merges the panel's quick filter into the filter applied and
// applies it; the panel closes. A bound that is no number is shown in the
// panel, and nothing changes.
func (m *Model) quickFilter(a QuickAsk) []Effect {
	lq := m.ShownQuery()
	if !m.stats.Open || lq == nil {
		return nil
	}
	text, err := QuickQuery(lq.Plan.Filter, a, lq.Cols)
	if err != nil {
		m.stats.QuickErr = err.Error()
		var qe *query.Error
		if errors.As(err, &qe) {
			m.stats.QuickErr = qe.Msg
		}
		return nil
	}
	col := m.stats.Col
	m.closeStats()
	lq.Input = text
	return append(m.applyQuery(lq.Plan.Sort, text, false), Focus{statsButton(col)})
}

// closeNested closes the nested levels below level k (0: all), stopping
// their scans, and the statistics panel if it was one's.
func (m *Model) closeNested(k int) {
	if k >= m.levels.Depth() {
		return
	}
	m.closeStats()
	m.levels.Close(&m.jobs, k)
}

// openNested shows the nested record batch of a cell of the level shown
// below it, with a query of its own; the level above keeps its own, and
// its scan goes on.
func (m *Model) openNested(a OpenNested) []Effect {
	f := m.Shown()
	if f == nil || a.Col < 0 || a.Col >= len(f.Fields()) {
		return nil
	}
	field := f.Fields()[a.Col].Name
	inner, err := f.Nested(a.Row, a.Col)
	if err != nil {
		return []Effect{Alert{What: NestedWhat(field, a.Row), Text: err.Error()}}
	}
	m.closeStats()
	m.levels.Push(inner, field, a.Row)
	return append([]Effect{Alert{}}, m.address(viewstate.SetNested{Levels: m.levels.Nested()})...)
}

// NestedWhat names the nested record batch of field's row in an alert.
func NestedWhat(field string, row int64) string {
	return fmt.Sprintf("the nested record batch of %s, row %d", field, row)
}

// crumb shows level k again, with its query and result as they were, at
// the row the level below was opened from, closing those below it.
func (m *Model) crumb(k int) []Effect {
	if k >= m.levels.Depth() {
		return nil
	}
	m.levels.At(k).Start = max(0, PosOf(m.levels.At(k).Query.Order, m.levels.At(k+1).Row))
	m.closeNested(k)
	return m.address(viewstate.SetNested{Levels: m.levels.Nested()})
}

// Masks are the masks offered over the thumbnails of the level shown, and
// whether each is drawn: the file's as the address says, a nested level's
// its own.
func (m *Model) Masks() []ThumbMask {
	l := m.levels.Shown()
	if l == nil {
		return nil
	}
	sel := l.Masks
	if m.levels.Depth() == 0 {
		st := m.loc.State()
		sel = MaskSel{Has: st.HasThumbMasks, On: st.ThumbMasks}
	}
	return ThumbMasksOf(l.pairs(), sel.Has, sel.On)
}

// toggleMask turns a mask over the thumbnails of the level shown on or
// off: in the address for the file, with the level for a nested batch.
func (m *Model) toggleMask(key string) []Effect {
	next, ok := Toggled(m.Masks(), key)
	if !ok {
		return nil
	}
	has, on := ThumbMaskAddress(next)
	if m.levels.Depth() > 0 {
		m.levels.Shown().Masks = MaskSel{Has: has, On: on}
		return nil
	}
	return m.address(viewstate.SetThumbMasks{Has: has, On: on})
}
