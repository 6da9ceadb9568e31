package session

import (
	"fmt"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/viewstate"
)

// nestedLevel is a nested record batch shown in the grid, and where it
// was opened from.
type Level struct {
	File    *decode.File
	Label   string // for the breadcrumb
	Field   string // the field of the level above it was opened from
	Row     int64  // the row of the level above it was opened from
	Query   *Query // the sort and filter of its rows, kept while a level below it is shown
	Start   int64  // the grid's first row when the level is shown (a position in its query's order)
	Masks   MaskSel
	pairsOf []ThumbPair // the masks offered over its thumbnails, once paired
	paired  bool        // the masks over its thumbnails turned on or off (masktoggle.go)
}

// MaskSel is what a level says of its thumbnails' masks: nothing (has
// false: every one suggested is drawn), or the keys of those drawn; as
// viewstate.State's HasThumbMasks and ThumbMasks.
type MaskSel struct {
	Has bool
	On  []string
}

// Levels are the record batches the grid can show, outermost first: the
// file (level 0, once one is open), then each nested record batch opened
// from a row of the level above. The grid shows the last one. Each keeps
// its own query, first row in view and masks while a level below it is
// shown; closing a level stops its scans and closes its file.
type Levels struct{ list []*Level }

// Reset makes f level 0 with no query, closing every nested level (and
// stopping the file's scan; the file itself is the caller's to close).
func (l *Levels) Reset(j *Jobs, f *decode.File) {
	l.Close(j, 0)
	gen := 0
	if len(l.list) > 0 {
		l.list[0].Query.Stop(j)
		gen = l.list[0].Query.Gen
	}
	q := NewQuery(f)
	q.Gen = gen + 1
	l.list = []*Level{{File: f, Label: f.Name, Query: &q}}
}

// Len is the number of levels: 0 before a file is open, 1 for the file.
func (l *Levels) Len() int { return len(l.list) }

// Depth is the number of nested levels open (Len - 1, or 0).
func (l *Levels) Depth() int { return max(0, len(l.list)-1) }

// At is level k (0: the file); nil when there is none.
func (l *Levels) At(k int) *Level {
	if k < 0 || k >= len(l.list) {
		return nil
	}
	return l.list[k]
}

// Shown is the level the grid shows (the innermost); nil before a file
// is open.
func (l *Levels) Shown() *Level { return l.At(len(l.list) - 1) }

// Top reports whether lv is level 0, the file.
func (l *Levels) Top(lv *Level) bool { return len(l.list) > 0 && l.list[0] == lv }

// Push opens the nested record batch f, read from row of field of the
// level shown, below it, with a query of its own (none yet).
func (l *Levels) Push(f *decode.File, field string, row int64) *Level {
	q := NewQuery(f)
	lv := &Level{File: f, Label: NestedLabel(field, row, f.Name), Field: field, Row: row, Query: &q}
	l.list = append(l.list, lv)
	return lv
}

// Close closes the nested levels below level k (so that k is shown; 0:
// the file), stopping their scans and closing their files.
func (l *Levels) Close(j *Jobs, k int) {
	if k+1 >= len(l.list) {
		return
	}
	for _, lv := range l.list[k+1:] {
		lv.Query.Stop(j)
		lv.File.Close()
	}
	l.list = l.list[:k+1]
}

// Of is the level that shows f, nil when none does (a level closed,
// another file opened).
func (l *Levels) Of(f *decode.File) *Level {
	for _, lv := range l.list {
		if f != nil && lv.File == f {
			return lv
		}
	}
	return nil
}

// Nested are the nested levels as the view state names them.
func (l *Levels) Nested() []viewstate.Level {
	out := make([]viewstate.Level, 0, l.Depth())
	for _, lv := range l.list[min(1, len(l.list)):] {
		out = append(out, viewstate.Level{Field: lv.Field, Row: lv.Row})
	}
	return out
}

// Crumbs are the breadcrumb's labels: the file's name, then each nested
// level's.
func (l *Levels) Crumbs() []string {
	out := make([]string, len(l.list))
	for i, lv := range l.list {
		out[i] = lv.Label
	}
	return out
}

// NestedLabel is the breadcrumb of the nested record batch name opened
// from field's row.
func NestedLabel(field string, row int64, name string) string {
	return fmt.Sprintf("%s, row %d: %s", field, row, name)
}

// pairs are the masks the level offers over its thumbnails (ThumbPairs of
// its file), found the first time they are asked for.
func (l *Level) pairs() []ThumbPair {
	if !l.paired {
		l.pairsOf, l.paired = ThumbPairs(l.File), true
	}
	return l.pairsOf
}
