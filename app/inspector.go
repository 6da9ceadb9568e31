package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/tensorext"
)

// Actions to open and close the inspector, and to stop its column
// statistics.
const (
	actionInspect      = "tv/inspect"       // value: inspectTarget
	actionCloseInspect = "tv/inspect-close" // no value
	actionStartColumn  = "tv/column-start"  // no value
	actionCancelColumn = "tv/column-cancel" // no value
)

// inspectTarget names the tensor to inspect.
type inspectTarget struct {
	Col int
	Row int64
}

// Range modes of the inspector's colour scale.
const (
	rangeMinMax = inspect.MinMax
	rangeP1to99 = "p1-99"
	rangeManual = "manual"
)

// histogramBins is the number of bars of the statistics' histogram.
const histogramBins = 32

// maxValuesText is how many characters of a tensor's values the inspector
// lists when it cannot draw them.
const maxValuesText = 20000

// Inspector shows one tensor in detail: any two of its dimensions as a
// picture (sliders for the others), colormaps, value range, hover readout,
// statistics and exports.
type Inspector struct {
	app.Compo
	File *decode.File
	Col  int
	Row  int64

	key       string // which tensor the state below belongs to
	tensor    tensorext.Tensor
	err       string
	physical  bool
	view      inspect.View
	cmap      string
	rangeMode string
	manual    inspect.Range
	rng       inspect.Range
	img       *image.RGBA
	renderErr string
	stats     inspect.Stats
	copied    string
	colStats  *inspect.ColumnStats // for the whole column, once computed
	colJob    *columnJob           // computing them
	colAuto   bool                 // start computing them (set by load)
}

// columnJob is a computation of column statistics under way.
type columnJob struct {
	cancel      context.CancelFunc
	done, total int // rows, over both passes
}

// The inspector computes the statistics of a column as soon as it opens
// when the column has at most autoColumnRows rows in a file of at most
// autoColumnBytes; otherwise a click starts them. Either way they are
// computed in the background, with progress and Cancel.
const (
	autoColumnRows  = 1000
	autoColumnBytes = 64 << 20
)

// OnMount focuses the dialog so Escape and the keyboard work at once.
func (in *Inspector) OnMount(ctx app.Context) {
	in.load()
	in.autoColumn(ctx)
	// The button that starts the statistics is gone once they start, and
	// go-app drops what its context dispatches: the inspector's own context
	// runs them.
	ctx.Handle(actionStartColumn, func(ctx app.Context, a app.Action) {
		in.startColumn(ctx)
		ctx.Update()
	})
	ctx.Handle(actionCancelColumn, func(ctx app.Context, a app.Action) {
		in.stopColumn()
		ctx.Update()
	})
	ctx.Defer(func(app.Context) {
		if el := in.JSValue(); el.Truthy() {
			el.Call("focus")
		}
	})
}

// OnUpdate loads another tensor when the parent passes one.
func (in *Inspector) OnUpdate(ctx app.Context) {
	in.load()
	in.autoColumn(ctx)
}

// OnDismount stops the column statistics under way.
func (in *Inspector) OnDismount() { in.stopColumn() }

func (in *Inspector) autoColumn(ctx app.Context) {
	if in.colAuto {
		in.colAuto = false
		in.startColumn(ctx)
	}
}

// startColumn computes the column's statistics in the background, showing
// its progress every 100 ms. ctx must be the inspector's own.
func (in *Inspector) startColumn(ctx app.Context) {
	if in.colJob != nil {
		return
	}
	jctx, cancel := context.WithCancel(context.Background())
	f, col := in.File, in.Col
	rows, _ := f.Rows()
	job := &columnJob{cancel: cancel, total: 2 * int(rows)} // two passes
	in.colJob = job
	ctx.Async(func() {
		last := time.Now()
		c, err := columnStats(jctx, f, col, func(done, total int) {
			if time.Since(last) < 100*time.Millisecond {
				return
			}
			last = time.Now()
			ctx.Dispatch(func(app.Context) { job.done, job.total = done, total })
		})
		ctx.Dispatch(func(app.Context) {
			if in.colJob != job {
				return // cancelled, or another column
			}
			in.colJob = nil
			if err == nil {
				in.colStats = c
			}
		})
	})
}

func (in *Inspector) stopColumn() {
	if in.colJob != nil {
		in.colJob.cancel()
		in.colJob = nil
	}
}

// load reads the tensor and resets the view when the target changed.
func (in *Inspector) load() {
	key := fmt.Sprintf("%p/%d/%d", in.File, in.Col, in.Row)
	if key == in.key {
		return
	}
	colKey := fmt.Sprintf("%p/%d", in.File, in.Col)
	if !strings.HasPrefix(in.key, colKey+"/") {
		in.stopColumn()
		in.colStats = nil
		rows, exact := in.File.Rows()
		in.colAuto = exact && rows <= autoColumnRows && in.File.Size <= autoColumnBytes
	}
	in.key, in.err, in.physical, in.copied = key, "", false, ""
	t, err := in.File.Tensor(in.Row, in.Col)
	switch {
	case errors.Is(err, tensorext.ErrNullTensor):
		in.err = "this tensor is null"
	case err != nil:
		in.err = err.Error()
	}
	in.tensor = t
	if in.err != "" {
		return
	}
	in.stats = inspect.ComputeStats(t, histogramBins)
	in.rangeMode = rangeMinMax
	in.resetView()
}

// shown is the tensor as displayed: its logical view, or the physical one.
func (in *Inspector) shown() tensorext.Tensor {
	if in.physical {
		t := in.tensor
		t.Permutation = nil
		return t
	}
	return in.tensor.Logical()
}

func (in *Inspector) resetView() {
	t := in.shown()
	in.view = inspect.DefaultView(t)
	in.cmap = ""
	in.render()
}

// render redraws the picture after any change of view, colormap or range.
func (in *Inspector) render() {
	t := in.shown()
	in.img, in.renderErr = nil, ""
	if err := in.view.Validate(t); err != nil {
		in.renderErr = err.Error()
		return
	}
	switch in.rangeMode {
	case rangeManual:
		in.rng = in.manual
	default:
		in.rng = inspect.AutoRange(t, in.view, in.rangeMode)
	}
	if in.cmap == "" {
		in.cmap = inspect.DefaultColormap(in.rng).Name
	}
	cm, _ := inspect.ColormapByName(in.cmap)
	r := in.rng
	if cm.Diverging && in.rangeMode != rangeManual {
		r = r.Symmetric()
		in.rng = r
	}
	img, err := inspect.Render(t, in.view, cm, r)
	if err != nil {
		in.renderErr = err.Error()
		return
	}
	in.img = img
}

func (in *Inspector) close(ctx app.Context) { ctx.NewAction(actionCloseInspect) }

func (in *Inspector) onKeyDown(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Escape" {
		e.PreventDefault()
		in.close(ctx)
		return
	}
	ctx.PreventUpdate()
}

// Render draws the dialog.
func (in *Inspector) Render() app.UI {
	in.load() // Render runs before OnMount
	field := in.File.Fields()[in.Col]
	return app.Div().Class("inspector-backdrop").Body(
		app.Div().Class("inspector").Role("dialog").Aria("modal", "true").Aria("label", "Tensor inspector").
			Attr("data-role", "inspector").Attr("data-field", field.Name).Attr("data-row", in.Row).
			TabIndex(-1).OnKeyDown(in.onKeyDown).Body(
			app.Header().Class("inspector-head").Body(
				app.H2().Text(fmt.Sprintf("%s, row %d", field.Name, in.Row)),
				app.Button().Type("button").Class("close").Attr("data-action", "close").Aria("label", "Close").Text("×").
					OnClick(func(ctx app.Context, e app.Event) { in.close(ctx) }),
			),
			app.If(in.err != "", func() app.UI { return app.P().Class("alert").Role("alert").Text(in.err) }).
				Else(func() app.UI { return in.body() }),
		),
	)
}

func (in *Inspector) body() app.UI {
	t := in.shown()
	return app.Div().Class("inspector-body").Body(
		app.Div().Class("inspector-main").Body(
			in.controls(t),
			app.If(in.renderErr != "", func() app.UI {
				return app.Div().Body(
					app.P().Class("render-error").Role("status").Text(in.renderErr),
					// What cannot be drawn is still shown as numbers.
					app.Pre().Class("values").Attr("data-role", "values").Text(decode.ValuesText(t, maxValuesText)),
				)
			}),
			app.If(in.img != nil, func() app.UI {
				return &SliceView{Tensor: t, View: in.view, Img: in.img}
			}),
			in.colorbar(),
		),
		app.Aside().Class("inspector-side").Body(
			in.statsPanel(t),
			in.columnPanel(),
			in.exports(t),
		),
	)
}

// dimLabel names dimension k of t: "2: C (3)".
func dimLabel(t tensorext.Tensor, k int) string {
	name := ""
	if k < len(t.DimNames) && t.DimNames[k] != "" {
		name = " " + t.DimNames[k]
	}
	return fmt.Sprintf("%d:%s (%d)", k, name, t.Shape[k])
}

func (in *Inspector) controls(t tensorext.Tensor) app.UI {
	n := t.NDim()
	dims := make([]int, n)
	for k := range dims {
		dims[k] = k
	}
	var sliders []int
	for k := 0; k < n; k++ {
		if k != in.view.Y && k != in.view.X && k != in.view.Channel {
			sliders = append(sliders, k)
		}
	}
	layout := "logical layout"
	if in.physical {
		layout = "physical layout"
	}
	return app.Div().Class("controls").Body(
		app.Div().Class("control-row").Body(
			app.Label().Body(app.Text("Rows (Y) "), in.axisSelect("axis-y", dims, in.view.Y, t, func(k int) {
				if k == in.view.X {
					in.view.X = in.view.Y
				}
				in.view.Y = k
			})),
			app.Label().Body(app.Text("Columns (X) "), in.axisSelect("axis-x", dims, in.view.X, t, func(k int) {
				if k == in.view.Y {
					in.view.Y = in.view.X
				}
				in.view.X = k
			})),
			app.Label().Body(app.Text("Channels "), in.channelSelect(t)),
			app.Button().Type("button").Attr("data-action", "swap-axes").Text("Swap axes").OnClick(func(ctx app.Context, e app.Event) {
				in.view.X, in.view.Y = in.view.Y, in.view.X
				in.render()
			}),
			app.Button().Type("button").Attr("data-action", "flip-y").Attr("aria-pressed", in.view.FlipY).Text("Flip rows").OnClick(func(ctx app.Context, e app.Event) {
				in.view.FlipY = !in.view.FlipY
				in.render()
			}),
			app.Button().Type("button").Attr("data-action", "flip-x").Attr("aria-pressed", in.view.FlipX).Text("Flip columns").OnClick(func(ctx app.Context, e app.Event) {
				in.view.FlipX = !in.view.FlipX
				in.render()
			}),
			app.Label().Class("toggle").Body(
				app.Input().Type("checkbox").Attr("data-role", "layout-toggle").Checked(in.physical).OnChange(func(ctx app.Context, e app.Event) {
					in.physical = ctx.JSSrc().Get("checked").Bool()
					in.resetView()
				}),
				app.Text(" physical layout"),
			),
			app.Span().Class("layout").Attr("data-role", "layout").Text(layout+": shape ["+decode.JoinInts(t.Shape)+"]"+namesSuffix(t.DimNames)),
		),
		app.Range(sliders).Slice(func(i int) app.UI { return in.slider(t, sliders[i]) }),
		app.Div().Class("control-row").Body(
			app.Label().Body(app.Text("Colormap "), in.colormapSelect()),
			app.Label().Body(app.Text("Range "), in.rangeSelect()),
			app.If(in.rangeMode == rangeManual, func() app.UI {
				return app.Span().Body(
					in.rangeInput("range-min", in.manual.Min, func(v float64) { in.manual.Min = v }),
					app.Text(" to "),
					in.rangeInput("range-max", in.manual.Max, func(v float64) { in.manual.Max = v }),
				)
			}),
		),
	)
}

func namesSuffix(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " (" + strings.Join(names, ",") + ")"
}

func (in *Inspector) axisSelect(role string, dims []int, selected int, t tensorext.Tensor, set func(int)) app.UI {
	return app.Select().Attr("data-role", role).OnChange(func(ctx app.Context, e app.Event) {
		k, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
		if err != nil || k < 0 || k >= t.NDim() {
			return
		}
		if k == in.view.Channel {
			in.view.Channel = -1
		}
		set(k)
		in.render()
	}).Body(
		app.Range(dims).Slice(func(i int) app.UI {
			return app.Option().Value(dims[i]).Selected(dims[i] == selected).Text(dimLabel(t, dims[i]))
		}),
	)
}

func (in *Inspector) channelSelect(t tensorext.Tensor) app.UI {
	var dims []int
	for k := 0; k < t.NDim(); k++ {
		if (t.Shape[k] == 3 || t.Shape[k] == 4) && k != in.view.Y && k != in.view.X {
			dims = append(dims, k)
		}
	}
	return app.Select().Attr("data-role", "channel").OnChange(func(ctx app.Context, e app.Event) {
		k, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
		if err != nil {
			return
		}
		in.view.Channel = k
		in.render()
	}).Body(
		app.Option().Value(-1).Selected(in.view.Channel < 0).Text("none (colormap)"),
		app.Range(dims).Slice(func(i int) app.UI {
			return app.Option().Value(dims[i]).Selected(dims[i] == in.view.Channel).Text(dimLabel(t, dims[i]))
		}),
	)
}

// slider moves along dimension k: a labelled range input and a number box.
func (in *Inspector) slider(t tensorext.Tensor, k int) app.UI {
	id := fmt.Sprintf("dim-%d", k)
	set := func(ctx app.Context, e app.Event) {
		v, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
		if err != nil || v < 0 || v >= t.Shape[k] || v == in.view.Index[k] {
			ctx.PreventUpdate()
			return
		}
		in.view.Index[k] = v
		in.render()
	}
	return app.Div().Class("slider").Body(
		app.Label().For(id).Text(dimLabel(t, k)),
		app.Input().Type("range").ID(id).Attr("data-dim", k).Min(0).Max(t.Shape[k]-1).Value(in.view.Index[k]).
			Aria("label", "index along "+dimLabel(t, k)).OnInput(set, app.EventScope(id)),
		app.Input().Type("number").Class("index").Attr("data-dim-index", k).Min(0).Max(t.Shape[k]-1).Value(in.view.Index[k]).
			Aria("label", "index along "+dimLabel(t, k)).OnChange(set, app.EventScope(id)),
	)
}

func (in *Inspector) colormapSelect() app.UI {
	return app.Select().Attr("data-role", "colormap").OnChange(func(ctx app.Context, e app.Event) {
		in.cmap = ctx.JSSrc().Get("value").String()
		in.render()
	}).Body(
		app.Range(inspect.Colormaps).Slice(func(i int) app.UI {
			name := inspect.Colormaps[i].Name
			return app.Option().Value(name).Selected(name == in.cmap).Text(name)
		}),
	)
}

func (in *Inspector) rangeSelect() app.UI {
	modes := [][2]string{{rangeMinMax, "min to max"}, {rangeP1to99, "1st to 99th percentile"}, {rangeManual, "typed by hand"}}
	return app.Select().Attr("data-role", "range-mode").OnChange(func(ctx app.Context, e app.Event) {
		mode := ctx.JSSrc().Get("value").String()
		if mode == rangeManual && in.rangeMode != rangeManual {
			in.manual = in.rng
		}
		in.rangeMode = mode
		in.render()
	}).Body(
		app.Range(modes).Slice(func(i int) app.UI {
			return app.Option().Value(modes[i][0]).Selected(modes[i][0] == in.rangeMode).Text(modes[i][1])
		}),
	)
}

func (in *Inspector) rangeInput(role string, v float64, set func(float64)) app.UI {
	return app.Input().Type("number").Attr("step", "any").Attr("data-role", role).Value(formatFloat(v)).
		OnChange(func(ctx app.Context, e app.Event) {
			f, err := strconv.ParseFloat(ctx.JSSrc().Get("value").String(), 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return
			}
			set(f)
			in.render()
		}, app.EventScope(role))
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// colorbar shows the colormap from the range's low to high end.
func (in *Inspector) colorbar() app.UI {
	if in.img == nil || in.view.Channel >= 0 {
		return app.Div()
	}
	cm, _ := inspect.ColormapByName(in.cmap)
	stops := make([]string, 0, 9)
	for i := 0; i <= 8; i++ {
		c := cm.LUT[min(255, i*32)]
		stops = append(stops, fmt.Sprintf("rgb(%d,%d,%d)", c.R, c.G, c.B))
	}
	return app.Div().Class("colorbar").Attr("data-role", "colorbar").Body(
		app.Span().Class("cb-min").Text(formatFloat(in.rng.Min)),
		app.Div().Class("cb-ramp").Style("background", "linear-gradient(to right,"+strings.Join(stops, ",")+")"),
		app.Span().Class("cb-max").Text(formatFloat(in.rng.Max)),
		app.Span().Class("cb-legend").Text("NaN, +Inf, −Inf and null have their own colours"),
	)
}

func (in *Inspector) statsPanel(t tensorext.Tensor) app.UI {
	s := in.stats
	rows := [][2]string{
		{"shape", "[" + decode.JoinInts(t.Shape) + "]"},
		{"value type", t.ValueType().String()},
		{"count", strconv.Itoa(s.Count)},
		{"nulls", strconv.Itoa(s.Nulls)},
		{"NaN", strconv.Itoa(s.NaN)},
		{"+Inf / −Inf", fmt.Sprintf("%d / %d", s.PosInf, s.NegInf)},
		{"min", formatFloat(s.Min)},
		{"max", formatFloat(s.Max)},
		{"mean", formatFloat(s.Mean)},
		{"std", formatFloat(s.Std)},
	}
	return app.Section().Class("stats").Attr("data-role", "stats").
		Attr("data-min", formatFloat(s.Min)).Attr("data-max", formatFloat(s.Max)).Attr("data-nan", s.NaN).Body(
		app.H3().Text("Statistics"),
		app.Dl().Body(app.Range(rows).Slice(func(i int) app.UI {
			return app.Div().Body(app.Dt().Text(rows[i][0]), app.Dd().Text(rows[i][1]))
		})),
		histogram(s.Hist, s.HistMin, s.HistMax),
	)
}

func (in *Inspector) exports(t tensorext.Tensor) app.UI {
	base := fmt.Sprintf("%s-row%d", safeName(in.File.Fields()[in.Col].Name), in.Row)
	return app.Section().Class("exports").Body(
		app.H3().Text("Export"),
		app.Button().Type("button").Attr("data-action", "download-npy").Text("Download .npy").
			OnClick(func(ctx app.Context, e app.Event) {
				var buf bytes.Buffer
				if err := inspect.WriteNPY(&buf, t); err != nil {
					in.copied = "cannot export: " + err.Error()
					return
				}
				download(base+".npy", "application/octet-stream", buf.Bytes())
			}),
		app.Button().Type("button").Attr("data-action", "download-png").Text("Download view as PNG").Disabled(in.img == nil).
			OnClick(func(ctx app.Context, e app.Event) {
				var buf bytes.Buffer
				if in.img == nil || png.Encode(&buf, in.img) != nil {
					return
				}
				download(base+".png", "image/png", buf.Bytes())
			}),
		app.If(t.Len() <= 4096, func() app.UI {
			return app.Button().Type("button").Attr("data-action", "copy-values").Text("Copy values").
				OnClick(func(ctx app.Context, e app.Event) {
					app.Window().Get("navigator").Get("clipboard").Call("writeText", t.String())
					in.copied = "copied"
				})
		}),
		app.If(in.copied != "", func() app.UI { return app.P().Class("note").Attr("aria-live", "polite").Text(in.copied) }),
	)
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, s)
}

// download hands bytes to the browser as a file download.
func download(name, mime string, data []byte) {
	u8 := app.Window().Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(u8, data)
	blob := app.Window().Get("Blob").New([]any{u8}, map[string]any{"type": mime})
	url := app.Window().Get("URL").Call("createObjectURL", blob)
	a := app.Window().Get("document").Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Call("click")
	// Revoke later: the download reads the URL after this returns.
	revoke := app.Window().Get("URL").Get("revokeObjectURL").Call("bind", app.Window().Get("URL"))
	app.Window().Call("setTimeout", revoke, 60000, url)
}

// columnStats computes the statistics of every tensor of column col of f.
func columnStats(ctx context.Context, f *decode.File, col int, progress func(done, total int)) (*inspect.ColumnStats, error) {
	rows, _ := f.Rows()
	c, err := inspect.ComputeColumnStats(ctx, int(rows), func(i int) (tensorext.Tensor, bool, error) {
		t, err := f.Tensor(int64(i), col)
		if errors.Is(err, tensorext.ErrNullTensor) {
			return t, false, nil
		}
		return t, err == nil, err
	}, histogramBins, progress)
	return &c, err
}

func (in *Inspector) columnPanel() app.UI {
	c := in.colStats
	if c == nil {
		return app.Section().Class("column-stats").Body(
			app.H3().Text("Column"),
			app.If(in.colJob != nil, func() app.UI {
				return &ProgressBar{Task: "column-stats", OnCancel: actionCancelColumn, Progress: progress{
					Label: "Computing column statistics", RowsDone: int64(in.colJob.done), RowsTotal: int64(in.colJob.total)}}
			}).Else(func() app.UI {
				return app.Button().Type("button").Attr("data-action", "column-stats").Text("Compute column statistics").
					OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(actionStartColumn) })
			}),
		)
	}
	rows := [][2]string{
		{"rows", strconv.Itoa(c.Rows)},
		{"null rows", strconv.Itoa(c.NullRows)},
		{"values", strconv.Itoa(c.Count)},
		{"nulls / NaN", fmt.Sprintf("%d / %d", c.Nulls, c.NaN)},
		{"min", formatFloat(c.Min)},
		{"max", formatFloat(c.Max)},
		{"mean", formatFloat(c.Mean)},
		{"std", formatFloat(c.Std)},
	}
	if c.BadRows > 0 {
		rows = append(rows, [2]string{"unreadable rows", strconv.Itoa(c.BadRows)})
	}
	return app.Section().Class("column-stats stats").Attr("data-role", "column-stats").
		Attr("data-rows", c.Rows).Attr("data-min", formatFloat(c.Min)).Attr("data-max", formatFloat(c.Max)).Body(
		app.H3().Text("Column"),
		app.Dl().Body(app.Range(rows).Slice(func(i int) app.UI {
			return app.Div().Body(app.Dt().Text(rows[i][0]), app.Dd().Text(rows[i][1]))
		})),
		histogram(c.Hist, c.HistMin, c.HistMax),
		app.H3().Class("shapes-head").Text("Shapes"),
		app.Ul().Class("shapes").Attr("data-role", "shapes").Body(
			app.Range(c.Shapes).Slice(func(i int) app.UI {
				sc := c.Shapes[i]
				return app.Li().Attr("data-shape", decode.JoinInts(sc.Shape)).Attr("data-rows", sc.Rows).
					Text(fmt.Sprintf("[%s] × %d", decode.JoinInts(sc.Shape), sc.Rows))
			}),
			app.If(c.OtherShapes > 0, func() app.UI {
				return app.Li().Text(fmt.Sprintf("%d rows of other shapes", c.OtherShapes))
			}),
		),
	)
}

// histogram draws counts as bars.
func histogram(hist []int, lo, hi float64) app.UI {
	peak := 1
	for _, c := range hist {
		peak = max(peak, c)
	}
	return app.Div().Class("histogram").Attr("data-role", "histogram").
		Title(fmt.Sprintf("%d bins from %s to %s", len(hist), formatFloat(lo), formatFloat(hi))).Body(
		app.Range(hist).Slice(func(i int) app.UI {
			return app.Div().Class("bar").Style("height", fmt.Sprintf("%.1f%%", 100*float64(hist[i])/float64(peak))).Title(strconv.Itoa(hist[i]))
		}),
	)
}
