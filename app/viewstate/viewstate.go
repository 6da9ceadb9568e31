package viewstate

import (
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

// Inspector is the state of the inspector on one tensor. Dimension numbers
// are in the order of the tensor shown (its logical view, or its physical
// layout with Physical); -1 means "the default" for Y, X and Channel when
// Set is false for them.
type Inspector struct {
	Field    string
	Row      int64
	Physical bool
	// HasAxes is true when Y, X and Channel were given.
	HasAxes    bool
	Y, X       int
	Channel    int // -1: none (a colormapped picture)
	Index      []int
	FlipY      bool
	FlipX      bool
	Colormap   string
	Range      string // inspect.MinMax or inspect.P1to99 ("" : the default)
	Zoom       float64
	PanX, PanY float64
	// HasOverlay is true when the address names the mask drawn over the
	// picture: Overlay, a column of the same row, or "" for none (the
	// default's choice turned off). Without it the inspector draws its
	// default mask, if any.
	HasOverlay bool
	Overlay    string
	// How the mask is drawn, each part left out for its default: the
	// opacity in percent (HasOpacity; 50 by default), outlines only, and
	// the classes hidden (HasHidden; class 0 by default).
	HasOpacity bool
	Opacity    int
	Outline    bool
	HasHidden  bool
	Hidden     []int64
	// HasBoxes is true when the address names the column of detection
	// boxes drawn over the picture: Boxes, or "" for none (the default's
	// turned off); without it the inspector draws its default boxes, if
	// any. BoxFormat is the boxes' format the user chose (a name
	// overlay.ParseBoxFormat reads), "" for the one the file states or the
	// guess.
	HasBoxes  bool
	Boxes     string
	BoxFormat string
	// Vs names the tensor compared with (vs=): field Vs of row VsRow (the
	// same row as Row, or another); "" for no comparison. Tol is the
	// tolerance of the comparison's count of differing elements (tol=; 0:
	// any difference counts). HasSwipe shows A and B in one picture split
	// at Swipe percent of its width (swipe=), instead of side by side.
	Vs       string
	VsRow    int64
	Tol      float64
	HasSwipe bool
	Swipe    int
}

// Parse reads a State from an address's query. Values that do not parse
// are ignored (a hand-edited link opens what it can).
func Parse(q url.Values) State {
	s := State{URL: sourceOf(q), Schema: q.Get("schema") == "1", Embed: q.Get("embed") == "1", Origin: q.Get("origin"),
		Sort: q.Get("sort"), Filter: q.Get("filter")}
	if n, err := strconv.ParseInt(q.Get("row"), 10, 64); err == nil && n >= 0 {
		s.Row = n
	}
	if q.Has("thumbmask") {
		s.HasThumbMasks = true
		for _, v := range q["thumbmask"] {
			if v != "" {
				s.ThumbMasks = append(s.ThumbMasks, v)
			}
		}
	}
	if !q.Has("f") {
		return s
	}
	in := &Inspector{Field: q.Get("f"), Y: -1, X: -1, Channel: -1}
	if n, err := strconv.ParseInt(q.Get("r"), 10, 64); err == nil && n >= 0 {
		in.Row = n
	}
	in.Physical = q.Get("phys") == "1"
	y, ey := strconv.Atoi(q.Get("y"))
	x, ex := strconv.Atoi(q.Get("x"))
	if ey == nil && ex == nil && y >= 0 && x >= 0 {
		in.HasAxes, in.Y, in.X = true, y, x
		if c, err := strconv.Atoi(q.Get("ch")); err == nil && c >= -1 {
			in.Channel = c
		}
	}
	if idx := q.Get("i"); idx != "" {
		for _, p := range strings.Split(idx, ",") {
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 {
				in.Index = nil
				break
			}
			in.Index = append(in.Index, n)
		}
	}
	flip := q.Get("flip")
	in.FlipY, in.FlipX = strings.Contains(flip, "y"), strings.Contains(flip, "x")
	in.Colormap, in.Range = q.Get("cmap"), q.Get("range")
	if z, err := strconv.ParseFloat(q.Get("zoom"), 64); err == nil && z >= 1 && z <= 64 {
		in.Zoom = z
	}
	if px, py, ok := strings.Cut(q.Get("pan"), ","); ok {
		fx, e1 := strconv.ParseFloat(px, 64)
		fy, e2 := strconv.ParseFloat(py, 64)
		if e1 == nil && e2 == nil && abs(fx) < 1e6 && abs(fy) < 1e6 {
			in.PanX, in.PanY = fx, fy
		}
	}
	if q.Has("overlay") {
		in.HasOverlay, in.Overlay = true, q.Get("overlay")
	}
	if n, err := strconv.Atoi(q.Get("opacity")); err == nil && n >= 0 && n <= 100 {
		in.HasOpacity, in.Opacity = true, n
	}
	in.Outline = q.Get("outline") == "1"
	if q.Has("hide") {
		in.Hidden, in.HasHidden = parseIDs(q.Get("hide"))
	}
	if q.Has("boxes") {
		in.HasBoxes, in.Boxes = true, q.Get("boxes")
	}
	in.BoxFormat = q.Get("boxfmt")
	if f, r := parseVs(q.Get("vs"), in.Row); f != "" {
		in.Vs, in.VsRow = f, r
		if f, err := strconv.ParseFloat(q.Get("tol"), 64); err == nil && f > 0 && !math.IsInf(f, 0) {
			in.Tol = f
		}
		if n, err := strconv.Atoi(q.Get("swipe")); err == nil && n >= 0 && n <= 100 {
			in.HasSwipe, in.Swipe = true, n
		}
	}
	s.Inspector = in
	return s
}

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

// parseIDs reads comma-separated class ids ("" is none); ok is false when
// one does not parse.
func parseIDs(s string) (ids []int64, ok bool) {
	if s == "" {
		return nil, true
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
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	if params, ok := DatasetParams(s.URL); ok {
		for k, v := range params {
			q[k] = v
		}
	} else {
		set("url", s.URL)
	}
	set("sort", s.Sort)
	set("filter", s.Filter)
	if s.Row > 0 {
		set("row", strconv.FormatInt(s.Row, 10))
	}
	if s.HasThumbMasks {
		q["thumbmask"] = []string{""} // "thumbmask=": none
		if len(s.ThumbMasks) > 0 {
			q["thumbmask"] = slices.Clone(s.ThumbMasks)
		}
	}
	if s.Schema {
		set("schema", "1")
	}
	if s.Embed {
		set("embed", "1")
		set("origin", s.Origin)
	}
	if in := s.Inspector; in != nil && len(s.Nested) == 0 {
		q.Set("f", in.Field)
		q.Set("r", strconv.FormatInt(in.Row, 10))
		if in.Physical {
			set("phys", "1")
		}
		if in.HasAxes {
			set("y", strconv.Itoa(in.Y))
			set("x", strconv.Itoa(in.X))
			set("ch", strconv.Itoa(in.Channel))
		}
		if len(in.Index) > 0 && !allZero(in.Index) {
			parts := make([]string, len(in.Index))
			for i, n := range in.Index {
				parts[i] = strconv.Itoa(n)
			}
			set("i", strings.Join(parts, ","))
		}
		flip := ""
		if in.FlipY {
			flip += "y"
		}
		if in.FlipX {
			flip += "x"
		}
		set("flip", flip)
		set("cmap", in.Colormap)
		set("range", in.Range)
		if in.Zoom > 1 {
			set("zoom", strconv.FormatFloat(in.Zoom, 'f', 3, 64))
		}
		if in.PanX != 0 || in.PanY != 0 {
			set("pan", strconv.FormatFloat(in.PanX, 'f', 1, 64)+","+strconv.FormatFloat(in.PanY, 'f', 1, 64))
		}
		if in.HasOverlay {
			q.Set("overlay", in.Overlay) // "overlay=": none
		}
		if in.HasOpacity {
			q.Set("opacity", strconv.Itoa(in.Opacity))
		}
		if in.Outline {
			q.Set("outline", "1")
		}
		if in.HasHidden {
			ids := make([]string, len(in.Hidden))
			for i, id := range in.Hidden {
				ids[i] = strconv.FormatInt(id, 10)
			}
			q.Set("hide", strings.Join(ids, ",")) // "hide=": every class shown
		}
		if in.HasBoxes {
			q.Set("boxes", in.Boxes) // "boxes=": none
		}
		set("boxfmt", in.BoxFormat)
		if in.Vs != "" {
			q.Set("vs", encodeVs(in.Vs, in.VsRow, in.Row))
			if in.Tol > 0 {
				q.Set("tol", strconv.FormatFloat(in.Tol, 'g', -1, 64))
			}
			if in.HasSwipe {
				q.Set("swipe", strconv.Itoa(in.Swipe))
			}
		}
	}
	// Readable links: the file's address unescaped where a query allows it.
	return readable.Replace(q.Encode())
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
