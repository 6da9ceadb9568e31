package viewstate

import (
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// State is a view of the page.
type State struct {
	// URL is the file's address ("" for a dropped or picked file), or for
	// a dataset of several files by URL the parameters that name it
	// (Dataset).
	URL    string
	Row    int64  // first row in view
	Schema bool   // the schema panel is open
	Embed  bool   // embed mode: only the viewer, for an iframe
	Origin string // embed: the only origin whose messages are taken and to which messages go ("": any parent)
	// Sort is the rows' order (query.SortKey's String: "score", "-score",
	// "-mean(emb)"), Filter the query the rows shown match (its canonical
	// form); "" for none. Row is then a position in that result.
	Sort, Filter string
	// HasThumbMasks is true when the address says which masks the grid's
	// thumbnails show (thumbmask=): ThumbMasks, each "<image field>:<mask
	// field>" (none: every one off). Without it the thumbnails show every
	// mask suggested for them (app/ui: overlay.Pairs' Suggested pair of
	// each image column).
	HasThumbMasks bool
	ThumbMasks    []string
	// Inspector is the inspector's state, nil when it is closed.
	Inspector *Inspector
	// Nested are the nested record batches opened below the file, outermost
	// first (not in the address: while one is shown, the address names the
	// file's view without its inspector).
	Nested []Level
}

// Inspector is the state of the inspector on one tensor: field Field of
// row Row (f=, r=), and the settings the address gives, in groups. Each
// group behind a pointer is nil when the address has none of its
// parameters, and so is each optional part inside a group: the inspector
// then uses its default.
type Inspector struct {
	Field string
	Row   int64
	View  View // how the tensor is shown; its zero value is the default
	// Mask is the mask drawn over the picture and its style (overlay=,
	// opacity=, outline=, hide=); nil: the default mask, if any, in the
	// default style.
	Mask *Mask
	// Boxes are the detection boxes drawn over the picture (boxes=,
	// boxfmt=); nil: the default boxes, if any, in the format the file
	// states or the guess.
	Boxes *Boxes
	// Compare is the tensor compared with (vs=, tol=, swipe=); nil: no
	// comparison.
	Compare *Compare
}

// View is how the tensor is shown. Dimension numbers are in the order of
// the tensor shown: its logical view, or its physical layout with
// Physical.
type View struct {
	Physical     bool    // phys=1
	Axes         *Axes   // y=, x=, ch=; nil: the inspector's default
	Index        []int   // i=: the sliders' positions, one per dimension (nil: all 0)
	FlipY, FlipX bool    // flip=
	Colormap     string  // cmap= ("": the default)
	Range        string  // range=: inspect.MinMax or inspect.P1to99 ("": the default)
	Zoom         float64 // zoom=, 1 to 64 (0: not zoomed)
	PanX, PanY   float64 // pan=, in CSS pixels
}

// Axes are the dimensions displayed: Y down, X across and Channel the
// colour channels (-1: none, a colormapped picture).
type Axes struct{ Y, X, Channel int }

// Mask is the mask drawn over the picture and how.
type Mask struct {
	// Column is the mask drawn (overlay=): a column of the same row, or
	// "" for none (the default's choice turned off); nil: the default.
	Column *string
	// Opacity is the opacity in percent, 0 to 100 (opacity=); nil: 50.
	Opacity *int
	// Outline draws outlines only (outline=1).
	Outline bool
	// Hidden are the classes hidden (hide=; empty: every class shown);
	// nil: class 0.
	Hidden *[]int64
}

// Boxes are the detection boxes drawn over the picture.
type Boxes struct {
	// Column is the column of boxes drawn (boxes=), "" for none (the
	// default's turned off); nil: the default boxes.
	Column *string
	// Format is the boxes' format the user chose (boxfmt=; a name
	// overlay.ParseBoxFormat reads), "" for the one the file states or
	// the guess.
	Format string
}

// Compare names the tensor compared with: field Field of row Row (the
// same row as the inspector's, or another).
type Compare struct {
	Field string
	Row   int64
	// Tol is the tolerance of the comparison's count of differing
	// elements (tol=; 0: any difference counts).
	Tol float64
	// Swipe shows A and B in one picture split at Swipe percent of its
	// width, 0 to 100 (swipe=); nil: side by side.
	Swipe *int
}

// Parse reads a State from an address's query. Values that do not parse
// are ignored (a hand-edited link opens what it can).
func Parse(q url.Values) State {
	s := State{URL: sourceOf(q), Row: parseRow(q.Get("row")), Schema: q.Get("schema") == "1", Embed: q.Get("embed") == "1",
		Origin: q.Get("origin"), Sort: q.Get("sort"), Filter: q.Get("filter")}
	if q.Has("thumbmask") {
		s.HasThumbMasks = true
		for _, v := range q["thumbmask"] {
			if v != "" {
				s.ThumbMasks = append(s.ThumbMasks, v)
			}
		}
	}
	if q.Has("f") {
		s.Inspector = parseInspector(q)
	}
	return s
}

// parseRow reads a row number, 0 when v is none.
func parseRow(v string) int64 {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		return n
	}
	return 0
}

func parseInspector(q url.Values) *Inspector {
	in := &Inspector{Field: q.Get("f"), Row: parseRow(q.Get("r")), View: parseView(q), Mask: parseMask(q), Boxes: parseBoxes(q)}
	in.Compare = parseCompare(q, in.Row)
	return in
}

func parseView(q url.Values) View {
	flip := q.Get("flip")
	v := View{Physical: q.Get("phys") == "1", Axes: parseAxes(q), Index: parseIndex(q.Get("i")),
		FlipY: strings.Contains(flip, "y"), FlipX: strings.Contains(flip, "x"), Colormap: q.Get("cmap"), Range: q.Get("range")}
	if z, err := strconv.ParseFloat(q.Get("zoom"), 64); err == nil && z >= 1 && z <= 64 {
		v.Zoom = z
	}
	if px, py, ok := strings.Cut(q.Get("pan"), ","); ok {
		fx, e1 := strconv.ParseFloat(px, 64)
		fy, e2 := strconv.ParseFloat(py, 64)
		if e1 == nil && e2 == nil && abs(fx) < 1e6 && abs(fy) < 1e6 {
			v.PanX, v.PanY = fx, fy
		}
	}
	return v
}

// parseAxes reads y=, x= and ch=: nil unless y and x are dimensions.
func parseAxes(q url.Values) *Axes {
	y, ey := strconv.Atoi(q.Get("y"))
	x, ex := strconv.Atoi(q.Get("x"))
	if ey != nil || ex != nil || y < 0 || x < 0 {
		return nil
	}
	a := &Axes{Y: y, X: x, Channel: -1}
	if c, err := strconv.Atoi(q.Get("ch")); err == nil && c >= -1 {
		a.Channel = c
	}
	return a
}

// parseIndex reads i=, comma-separated positions; nil when one does not
// parse.
func parseIndex(v string) []int {
	if v == "" {
		return nil
	}
	var idx []int
	for _, p := range strings.Split(v, ",") {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return nil
		}
		idx = append(idx, n)
	}
	return idx
}

func parseMask(q url.Values) *Mask {
	m := Mask{Outline: q.Get("outline") == "1"}
	if q.Has("overlay") {
		m.Column = ptr(q.Get("overlay"))
	}
	if n, err := strconv.Atoi(q.Get("opacity")); err == nil && n >= 0 && n <= 100 {
		m.Opacity = &n
	}
	if ids, ok := parseIDs(q.Get("hide")); ok && q.Has("hide") {
		m.Hidden = &ids
	}
	if m == (Mask{}) {
		return nil
	}
	return &m
}

func parseBoxes(q url.Values) *Boxes {
	b := Boxes{Format: q.Get("boxfmt")}
	if q.Has("boxes") {
		b.Column = ptr(q.Get("boxes"))
	}
	if b == (Boxes{}) {
		return nil
	}
	return &b
}

// parseCompare reads vs= and, with it, tol= and swipe=; row is the
// inspector's.
func parseCompare(q url.Values, row int64) *Compare {
	f, r := parseVs(q.Get("vs"), row)
	if f == "" {
		return nil
	}
	c := &Compare{Field: f, Row: r}
	if t, err := strconv.ParseFloat(q.Get("tol"), 64); err == nil && t > 0 && !math.IsInf(t, 0) {
		c.Tol = t
	}
	if n, err := strconv.Atoi(q.Get("swipe")); err == nil && n >= 0 && n <= 100 {
		c.Swipe = &n
	}
	return c
}

func ptr[T any](v T) *T { return &v }

// parseVs reads vs=: "field" (a column of row, the inspected row) or
// "field@n" (row n). A field whose own name ends in "@digits" is written
// with its row always ("x@2@0"), so the last "@" decides.
func parseVs(v string, row int64) (field string, vsRow int64) {
	if at := strings.LastIndexByte(v, '@'); at >= 0 {
		if n, err := strconv.ParseInt(v[at+1:], 10, 64); err == nil && n >= 0 && v[at+1] != '+' {
			return v[:at], n
		}
	}
	return v, row
}

// encodeVs writes vs= for field of row vsRow, the inspector being on row.
func encodeVs(field string, vsRow, row int64) string {
	if vsRow != row || parseVsField(field) != field {
		return field + "@" + strconv.FormatInt(vsRow, 10)
	}
	return field
}

// parseVsField is the field parseVs reads from v alone.
func parseVsField(v string) string {
	f, _ := parseVs(v, 0)
	return f
}

// parseIDs reads comma-separated class ids ("" is none: empty, not nil);
// ok is false when one does not parse.
func parseIDs(s string) (ids []int64, ok bool) {
	ids = []int64{}
	if s == "" {
		return ids, true
	}
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, false
		}
		ids = append(ids, n)
	}
	return ids, true
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// owned are the parameters Encode writes; others are kept.
var owned = []string{"url", "urls", "hf", "config", "split", "hub", "sort", "filter", "thumbmask", "row", "schema", "embed", "origin", "f", "r", "phys", "y", "x", "ch", "i", "flip", "cmap", "range", "zoom", "pan", "overlay", "opacity", "outline", "hide", "boxes", "boxfmt", "vs", "tol", "swipe"}

// Encode writes s into a copy of keep (the current query: parameters the
// State does not own, such as cache, stay) and returns it encoded, in a
// stable order. Defaults are left out: a view at row 0 with the schema
// closed and no inspector is just "url=…".
func (s State) Encode(keep url.Values) string {
	q := url.Values{}
	for k, v := range keep {
		q[k] = v
	}
	for _, k := range owned {
		q.Del(k)
	}
	if params, ok := DatasetParams(s.URL); ok {
		maps.Copy(q, params)
	} else {
		put(q, "url", s.URL)
	}
	put(q, "sort", s.Sort)
	put(q, "filter", s.Filter)
	if s.Row > 0 {
		q.Set("row", strconv.FormatInt(s.Row, 10))
	}
	if s.HasThumbMasks {
		q["thumbmask"] = []string{""} // "thumbmask=": none
		if len(s.ThumbMasks) > 0 {
			q["thumbmask"] = slices.Clone(s.ThumbMasks)
		}
	}
	if s.Schema {
		q.Set("schema", "1")
	}
	if s.Embed {
		q.Set("embed", "1")
		put(q, "origin", s.Origin)
	}
	if s.Inspector != nil && len(s.Nested) == 0 {
		s.Inspector.encode(q)
	}
	// Readable links: the file's address unescaped where a query allows it.
	return readable.Replace(q.Encode())
}

// put sets q's k to v unless v is "" (left out: the default).
func put(q url.Values, k, v string) {
	if v != "" {
		q.Set(k, v)
	}
}

func (in *Inspector) encode(q url.Values) {
	q.Set("f", in.Field)
	q.Set("r", strconv.FormatInt(in.Row, 10))
	in.View.encode(q)
	if in.Mask != nil {
		in.Mask.encode(q)
	}
	if in.Boxes != nil {
		in.Boxes.encode(q)
	}
	if c := in.Compare; c != nil && c.Field != "" {
		c.encode(q, in.Row)
	}
}

func (v View) encode(q url.Values) {
	if v.Physical {
		q.Set("phys", "1")
	}
	if a := v.Axes; a != nil {
		q.Set("y", strconv.Itoa(a.Y))
		q.Set("x", strconv.Itoa(a.X))
		q.Set("ch", strconv.Itoa(a.Channel))
	}
	if len(v.Index) > 0 && !allZero(v.Index) {
		parts := make([]string, len(v.Index))
		for i, n := range v.Index {
			parts[i] = strconv.Itoa(n)
		}
		q.Set("i", strings.Join(parts, ","))
	}
	flip := ""
	if v.FlipY {
		flip += "y"
	}
	if v.FlipX {
		flip += "x"
	}
	put(q, "flip", flip)
	put(q, "cmap", v.Colormap)
	put(q, "range", v.Range)
	if v.Zoom > 1 {
		q.Set("zoom", strconv.FormatFloat(v.Zoom, 'f', 3, 64))
	}
	if v.PanX != 0 || v.PanY != 0 {
		q.Set("pan", strconv.FormatFloat(v.PanX, 'f', 1, 64)+","+strconv.FormatFloat(v.PanY, 'f', 1, 64))
	}
}

func (m *Mask) encode(q url.Values) {
	if m.Column != nil {
		q.Set("overlay", *m.Column) // "overlay=": none
	}
	if m.Opacity != nil {
		q.Set("opacity", strconv.Itoa(*m.Opacity))
	}
	if m.Outline {
		q.Set("outline", "1")
	}
	if m.Hidden != nil {
		ids := make([]string, len(*m.Hidden))
		for i, id := range *m.Hidden {
			ids[i] = strconv.FormatInt(id, 10)
		}
		q.Set("hide", strings.Join(ids, ",")) // "hide=": every class shown
	}
}

func (b *Boxes) encode(q url.Values) {
	if b.Column != nil {
		q.Set("boxes", *b.Column) // "boxes=": none
	}
	put(q, "boxfmt", b.Format)
}

// encode writes vs=, tol= and swipe=; row is the inspector's.
func (c *Compare) encode(q url.Values, row int64) {
	q.Set("vs", encodeVs(c.Field, c.Row, row))
	if c.Tol > 0 {
		q.Set("tol", strconv.FormatFloat(c.Tol, 'g', -1, 64))
	}
	if c.Swipe != nil {
		q.Set("swipe", strconv.Itoa(*c.Swipe))
	}
}

// readable unescapes the characters a query may hold as they are.
var readable = strings.NewReplacer("%2F", "/", "%3A", ":", "%2C", ",", "%40", "@")

func allZero(v []int) bool {
	for _, n := range v {
		if n != 0 {
			return false
		}
	}
	return true
}

// datasetPrefix starts a State.URL that names a dataset of several files
// by the address parameters that name it, as a query: several url
// parameters (the files, in order), urls (a link to a list of links), or
// hf (a Hugging Face dataset, with config, split and hub).
const datasetPrefix = "dataset:"

// datasetKeys are the parameters that name a dataset.
var datasetKeys = []string{"url", "urls", "hf", "config", "split", "hub"}

// sourceOf is what an address's query names to open: a file's URL, or a
// dataset (datasetPrefix and its parameters).
func sourceOf(q url.Values) string {
	if len(q["url"]) <= 1 && !q.Has("urls") && !q.Has("hf") {
		return q.Get("url")
	}
	d := url.Values{}
	for _, k := range datasetKeys {
		if vs := q[k]; len(vs) > 0 {
			d[k] = vs
		}
	}
	return datasetPrefix + d.Encode()
}

// DatasetParams returns the parameters of a State.URL that names a
// dataset (url repeated, urls, hf, config, split, hub), ok false for a
// file's URL.
func DatasetParams(u string) (params url.Values, ok bool) {
	rest, ok := strings.CutPrefix(u, datasetPrefix)
	if !ok {
		return nil, false
	}
	params, err := url.ParseQuery(rest)
	return params, err == nil
}
