package viewstate

import (
	"net/url"
	"slices"
	"time"
)

// WriteDelay is how long in-place changes (scrolling, sliders, zoom) are
// coalesced before the address is written: browsers limit how often a page
// may call history.replaceState, and each call costs the page several
// milliseconds.
const WriteDelay = 250 * time.Millisecond

// TraversalTimeout is how long the Model waits for the popstate event of a
// history.back() it asked for before it stops waiting (a browser that drops
// the traversal must not leave the address unwritten forever).
const TraversalTimeout = 2 * time.Second

// Model is the one owner of what the page shows: the file, its first row in
// view, the schema panel, the inspector and its session, the nested record
// batch levels. The page tells it what the user did (typed Actions) and
// does what it answers (typed Effects): history writes, timers, the embed
// message, opening a file a real navigation names.
//
// The address is written from the state and read into it only on real
// navigation: a link loaded (Link), a popstate the page did not cause
// (PopState while no traversal of the Model's own is under way). The
// history moves the Model makes itself are serialised: after it asks for a
// Back (closing an inspector whose entry it pushed), it writes nothing more
// until that traversal's popstate arrives; what the user does meanwhile is
// shown at once and written when it arrives, in order. A scheduled write
// carries a generation: any write made since (a step, a real navigation)
// makes it stale, and a write always writes the current state, so no timer
// can write an old view over a newer entry.
//
// Steps (opening the inspector, opening another file) are history entries:
// Back undoes exactly one of them and Forward redoes it. Everything else
// (row, schema panel, inspector settings) is written in place.
//
// Entry points: NewModel, Model.Do, Model.State, Model.Settled.
type Model struct {
	base string     // the page's address, to resolve relative file URLs against
	keep url.Values // parameters of the loaded address the Model does not own (cache=)

	st      State
	file    string // the name of the file shown ("" for none)
	has     func(field string, row int64) bool
	pending *State // a link's view, for the next file opened

	entry     string // the query the current history entry holds
	entryStep bool   // the current entry is an inspector step the Model pushed: closing it goes Back

	traversing bool     // a history.back() of the Model's is under way
	queue      []Effect // history writes waiting for that traversal's popstate
	travGen    int

	due    bool // a write of in-place changes is scheduled
	gen    int  // the generation of the scheduled write
	posted string
}

// Action is something the user or the page did; see Model.Do. Each
// applies itself to the Model, returning the history's effects.
type Action interface{ apply(m *Model) []Effect }

// Effect is something the page must do for the Model, in order.
type Effect interface{ effect() }

// Actions.
type (
	// Link: the page was loaded, or go-app followed a link within it
	// (OnNav). Query is the address's query; Step is true when the
	// history entry is one the Model pushed (history.state says so: a
	// reloaded inspector).
	Link struct {
		Query string
		Step  bool
	}
	// PopState: the browser moved in the history (Back, Forward, or the
	// Model's own Back).
	PopState struct {
		Query string
		Step  bool
	}
	// FileOpened: a file is shown. URL is its absolute address ("" for a
	// dropped, picked or posted file); Schema is the remembered state of the
	// schema panel; Has says whether the file has a field of that name and
	// that row (nil: any).
	FileOpened struct {
		Name, URL string
		Schema    bool
		Has       func(field string, row int64) bool
	}
	// ScrollRow: the first row in view changed.
	ScrollRow struct{ Row int64 }
	// SetSchema: the schema panel was opened or closed.
	SetSchema struct{ Open bool }
	// SetQuery: the rows are shown sorted by Sort and kept to those
	// matching Filter ("" for none; see State); the first row in view is
	// the result's first.
	SetQuery struct{ Sort, Filter string }
	// SetThumbMasks: the masks the grid's thumbnails show (see State's
	// HasThumbMasks).
	SetThumbMasks struct {
		Has bool
		On  []string
	}
	// OpenInspector: the user opened a tensor, compared with field Vs
	// of row VsRow when Vs is not "" (two cells selected in the grid).
	OpenInspector struct {
		Field string
		Row   int64
		Vs    string
		VsRow int64
	}
	// InspectorChanged: the open inspector's session changed (slice,
	// colormap, zoom…). Ignored unless it names the tensor open.
	InspectorChanged struct{ Inspector Inspector }
	// CloseInspector: the user closed the inspector (Escape, ×).
	CloseInspector struct{}
	// SetNested: the nested record batch levels shown (arrow.turtle values).
	SetNested struct{ Levels []Level }
	// Flush: the timer of a Schedule effect fired.
	Flush struct{ Gen int }
	// TraversalLost: the timer of a WaitTraversal effect fired.
	TraversalLost struct{ Gen int }
)

// Level is a nested record batch opened from a cell.
type Level struct {
	Field string
	Row   int64
}

// Effects.
type (
	// Replace: history.replaceState with Query ("?…" or ""), marking the
	// entry as an inspector step when Step.
	Replace struct {
		Query string
		Step  bool
	}
	// Push: history.pushState with Query, marking the entry as an
	// inspector step.
	Push struct{ Query string }
	// Back: history.back(); the Model expects a PopState.
	Back struct{}
	// Schedule: after WriteDelay, Do(Flush{Gen}).
	Schedule struct{ Gen int }
	// WaitTraversal: after TraversalTimeout, Do(TraversalLost{Gen}).
	WaitTraversal struct{ Gen int }
	// Post: tell the embedding page the view changed (tensorview:state).
	Post struct {
		Query string // the view's query, embed parameters included
		File  string // the name of the file shown
	}
	// OpenURL: open the file at URL (a link or a history entry names
	// another file than the one shown). The view it names is kept for it.
	OpenURL struct{ URL string }
)

func (Replace) effect()       {}
func (Push) effect()          {}
func (Back) effect()          {}
func (Schedule) effect()      {}
func (WaitTraversal) effect() {}
func (Post) effect()          {}
func (OpenURL) effect()       {}

// NewModel is the Model of a page at address base (absolute; its query is
// not read: give it with a Link).
func NewModel(base string) *Model {
	return &Model{base: base, keep: url.Values{}}
}

// State is what the page shows now.
func (m *Model) State() State { return m.st }

// Settled reports whether the address holds the state: no write is
// scheduled and no traversal is under way.
func (m *Model) Settled() bool {
	return !m.due && !m.traversing && m.query(m.st) == m.entry
}

// Do applies a, and returns what the page must do, in order.
func (m *Model) Do(a Action) []Effect {
	return append(a.apply(m), m.post()...)
}

func (a Link) apply(m *Model) []Effect       { return m.link(a) }
func (a PopState) apply(m *Model) []Effect   { return m.pop(a) }
func (a FileOpened) apply(m *Model) []Effect { return m.opened(a) }

func (a ScrollRow) apply(m *Model) []Effect {
	if m.st.Row == a.Row {
		return nil
	}
	m.st.Row = a.Row
	return m.later()
}

func (a SetSchema) apply(m *Model) []Effect {
	if m.st.Schema == a.Open {
		return nil
	}
	m.st.Schema = a.Open
	return m.writeNow()
}

func (a SetQuery) apply(m *Model) []Effect {
	if m.st.Sort == a.Sort && m.st.Filter == a.Filter {
		return nil
	}
	m.st.Sort, m.st.Filter, m.st.Row = a.Sort, a.Filter, 0
	return m.writeNow()
}

func (a SetThumbMasks) apply(m *Model) []Effect {
	if m.st.HasThumbMasks == a.Has && slices.Equal(m.st.ThumbMasks, a.On) {
		return nil
	}
	m.st.HasThumbMasks, m.st.ThumbMasks = a.Has, slices.Clone(a.On)
	return m.writeNow()
}

func (a OpenInspector) apply(m *Model) []Effect { return m.openInspector(a) }

func (a InspectorChanged) apply(m *Model) []Effect {
	in := m.st.Inspector
	if in == nil || in.Field != a.Inspector.Field || in.Row != a.Inspector.Row {
		return nil // a report of an inspector closed since
	}
	c := a.Inspector
	m.st.Inspector = &c
	return m.later()
}

func (CloseInspector) apply(m *Model) []Effect { return m.closeInspector() }

func (a SetNested) apply(m *Model) []Effect {
	m.st.Nested = append([]Level(nil), a.Levels...)
	m.st.Inspector = nil
	return m.writeNow()
}

func (a Flush) apply(m *Model) []Effect {
	if a.Gen != m.gen || !m.due {
		return nil
	}
	m.due = false
	return m.writeNow()
}

func (a TraversalLost) apply(m *Model) []Effect {
	if !m.traversing || a.Gen != m.travGen {
		return nil
	}
	// Write what is queued, then the state, over whatever entry the
	// browser is on.
	return m.endTraversal("", false)
}

// query is the address's query for s ("?…", or "" for none).
func (m *Model) query(s State) string {
	if q := s.Encode(m.keep); q != "" {
		return "?" + q
	}
	return ""
}

// write is a history write (queued during a traversal).
func (m *Model) write(e Effect) []Effect {
	if m.traversing {
		m.queue = append(m.queue, e)
		return nil
	}
	switch e := e.(type) {
	case Replace:
		if e.Query == m.entry && e.Step == m.entryStep {
			return nil
		}
		m.entry, m.entryStep = e.Query, e.Step
	case Push:
		m.entry, m.entryStep = e.Query, true
	case Back:
		m.traversing = true
		m.travGen++
		return []Effect{e, WaitTraversal{m.travGen}}
	}
	return []Effect{e}
}

// writeNow writes the state in place at once, cancelling a scheduled write.
func (m *Model) writeNow() []Effect {
	m.due = false
	m.gen++
	return m.write(Replace{m.query(m.st), m.entryStep})
}

// later schedules an in-place write of the state (at most one pending).
func (m *Model) later() []Effect {
	if m.due {
		return nil
	}
	m.due = true
	m.gen++
	return []Effect{Schedule{m.gen}}
}

// flushed writes a scheduled in-place change into the current entry now,
// before a step moves away from it.
func (m *Model) flushed(s State) []Effect {
	if !m.due {
		return nil
	}
	m.due = false
	m.gen++
	return m.write(Replace{m.query(s), m.entryStep})
}

func (m *Model) openInspector(a OpenInspector) []Effect {
	in := &Inspector{Field: a.Field, Row: a.Row}
	if a.Vs != "" {
		in.Compare = &Compare{Field: a.Vs, Row: a.VsRow}
	}
	if m.st.Inspector != nil || len(m.st.Nested) > 0 || m.st.Embed {
		// Another tensor from the open inspector, a nested batch's (the
		// address names fields of the file only) or an embed (its
		// entries would join the host page's history): in place.
		m.st.Inspector = in
		return m.writeNow()
	}
	out := m.flushed(m.st)
	m.st.Inspector = in
	return append(out, m.write(Push{m.query(m.st)})...)
}

func (m *Model) closeInspector() []Effect {
	if m.st.Inspector == nil {
		return nil
	}
	if m.traversing {
		// Opened during a traversal: its Push is still queued, drop it
		// (and the writes after it) instead of going Back again.
		for i := len(m.queue) - 1; i >= 0; i-- {
			if _, ok := m.queue[i].(Push); ok {
				m.queue = m.queue[:i]
				m.st.Inspector = nil
				m.due = false
				m.gen++
				return nil
			}
		}
	}
	out := m.flushed(m.st) // the entry keeps the inspector's last settings, for Forward
	m.st.Inspector = nil
	if m.entryStep && !m.st.Embed && len(m.st.Nested) == 0 {
		return append(out, m.write(Back{})...)
	}
	m.due = false
	m.gen++
	return append(out, m.write(Replace{m.query(m.st), m.entryStep})...)
}

// pop is a popstate: the end of the Model's own traversal, or a real
// navigation.
func (m *Model) pop(a PopState) []Effect {
	if m.traversing {
		return m.endTraversal(a.Query, a.Step)
	}
	// Real navigation: the entry's view is read, nothing scheduled before
	// it is written over it.
	m.due = false
	m.gen++
	m.entry, m.entryStep = a.Query, a.Step
	s := parseQuery(a.Query)
	if m.resolve(s.URL) != m.resolve(m.st.URL) {
		return m.openLink(s)
	}
	// The same file: the entry's inspector (open or closed, with its
	// settings); the row and the schema panel stay as they are.
	m.st.Inspector = nil
	if m.shows(s.Inspector) {
		m.st.Inspector, m.st.Nested = s.Inspector, nil
	}
	return m.write(Replace{m.query(m.st), m.entryStep})
}

// endTraversal ends the Model's own traversal, landed on the entry holding
// query (unknown: ""), writes what was queued meanwhile, then the state.
func (m *Model) endTraversal(query string, step bool) []Effect {
	m.traversing = false
	m.entry, m.entryStep = query, step
	if query == "" {
		m.entry = "\x00unknown" // never equal: the state is written
	}
	var out []Effect
	q := m.queue
	m.queue = nil
	for _, e := range q {
		out = append(out, m.write(e)...)
	}
	if m.traversing {
		return out // a queued Back started another traversal
	}
	if m.due {
		return out // the scheduled write writes the state
	}
	return append(out, m.write(Replace{m.query(m.st), m.entryStep})...)
}

// link is a loaded address: the initial one, or a link go-app followed.
func (m *Model) link(a Link) []Effect {
	m.entry, m.entryStep = a.Query, a.Step
	s := parseQuery(a.Query)
	m.keep = unowned(a.Query)
	m.st.Embed, m.st.Origin = s.Embed, s.Origin
	if s.URL == "" || m.resolve(s.URL) == m.resolve(m.st.URL) && m.file != "" {
		if m.file == "" && (s.Row > 0 || s.Inspector != nil || s.Schema || s.Sort != "" || s.Filter != "" || s.HasThumbMasks) {
			m.pending = &s // a link's view, for the file dropped next
		}
		if m.file != "" {
			// The same file: write the view shown back.
			return m.writeNow()
		}
		return nil
	}
	return m.openLink(s)
}

// openLink asks for the file s names, keeping s's view for it.
func (m *Model) openLink(s State) []Effect {
	s.Embed, s.Origin = m.st.Embed, m.st.Origin
	m.pending = &s
	return []Effect{OpenURL{s.URL}}
}

// opened applies a link's view, if it was for this file, to the file just
// opened, and writes it.
func (m *Model) opened(a FileOpened) []Effect {
	p := m.pending
	m.pending = nil
	m.file, m.has = a.Name, a.Has
	m.st = State{URL: a.URL, Embed: m.st.Embed, Origin: m.st.Origin, Schema: a.Schema}
	if p != nil && m.resolve(p.URL) == a.URL {
		m.st.URL = p.URL // as the link wrote it (relative links stay relative)
		m.st.Row, m.st.Sort, m.st.Filter = p.Row, p.Sort, p.Filter
		m.st.HasThumbMasks, m.st.ThumbMasks = p.HasThumbMasks, p.ThumbMasks
		m.st.Schema = m.st.Schema || p.Schema
		if in := p.Inspector; m.shows(in) {
			m.st.Inspector = in
		}
	}
	// The entry that named the file now names what is shown.
	m.due = false
	m.gen++
	return m.write(Replace{m.query(m.st), m.entryStep && m.st.Inspector != nil})
}

// shows reports whether the file shown has in's tensor.
func (m *Model) shows(in *Inspector) bool {
	return in != nil && m.file != "" && (m.has == nil || m.has(in.Field, in.Row))
}

// post is the embed message when the view or the file changed since the
// last one (never while a write is scheduled: it follows the write).
func (m *Model) post() []Effect {
	if !m.st.Embed || m.due {
		return nil
	}
	q := m.st.Encode(nil)
	key := m.file + "\x00" + q
	if key == m.posted {
		return nil
	}
	m.posted = key
	return []Effect{Post{Query: q, File: m.file}}
}

// resolve is u made absolute against the page's address ("" stays "").
func (m *Model) resolve(u string) string {
	if u == "" {
		return ""
	}
	ref, err := url.Parse(u)
	if err != nil {
		return u
	}
	base, err := url.Parse(m.base)
	if err != nil {
		return u
	}
	return base.ResolveReference(ref).String()
}

// parseQuery parses an address's query ("?…" or "…").
func parseQuery(q string) State {
	v, _ := url.ParseQuery(trimQ(q))
	return Parse(v)
}

// unowned are the parameters of q the State does not own.
func unowned(q string) url.Values {
	v, _ := url.ParseQuery(trimQ(q))
	for _, k := range owned {
		v.Del(k)
	}
	return v
}

func trimQ(q string) string {
	if len(q) > 0 && q[0] == '?' {
		return q[1:]
	}
	return q
}
