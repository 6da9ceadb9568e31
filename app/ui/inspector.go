package ui

import (
	"errors"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/inspect"
	"github.com/tensorview/tensorview/app/overlay"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/summary"
	"github.com/tensorview/tensorview/app/ui/colstats"
	"github.com/tensorview/tensorview/app/ui/inspector/masks"
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/app/viewstate"
	"github.com/tensorview/tensorview/tensorext"
)

// Actions the inspector's parts send to it (those it sends to the Viewer,
// to close it and with its settings, are in actions.go).
const (
	actionCamera kit.Action[inspect.Camera] = "tv/camera" // the picture's new zoom and pan (SliceView)
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
	// Restore is a link's state of the inspector, applied when it names
	// this tensor.
	Restore *viewstate.Inspector
	// Column is the statistics of the inspected column (session.Model.Elements).
	Column session.Stats

	cam     inspect.Camera   // the picture's zoom and pan
	target  inspectKey       // which tensor the state below belongs to
	session *inspect.Session // nil when the tensor cannot be shown
	ov      *overlayState    // the masks over the picture; nil with session
	bx      *boxState        // the detection boxes over the picture; nil with session
	cmp     *compareState    // the comparison with another tensor; nil with session
	err     string
}

// inspectKey tells tensors apart: a file, a column, a row.
type inspectKey struct {
	file *decode.File
	col  int
	row  int64
}

// OnMount focuses the dialog so Escape and the keyboard work at once.
func (in *Inspector) OnMount(ctx app.Context) {
	in.load()
	actionCamera.Handle(ctx, func(ctx app.Context, cam inspect.Camera) {
		in.cam = cam
		in.report(ctx)
	})
	in.report(ctx)
	ctx.Defer(func(app.Context) {
		// The dialog, not the backdrop (which Chromium makes focusable as
		// a scroll container, and whose keys the dialog would not see).
		if el := in.JSValue(); el.Truthy() {
			if d := el.Call("querySelector", "[data-role=inspector]"); d.Truthy() {
				d.Call("focus")
			}
		}
	})
}

// OnUpdate loads another tensor when the parent passes one.
func (in *Inspector) OnUpdate(ctx app.Context) {
	if in.load() {
		in.report(ctx)
	}
}

// report sends the inspector's state to the Viewer, for the address.
func (in *Inspector) report(ctx app.Context) {
	st := &viewstate.Inspector{Field: in.File.Fields()[in.Col].Name, Row: in.Row}
	if s := in.session; s != nil {
		v := s.View
		st.View = viewstate.View{Physical: s.Physical, Axes: &viewstate.Axes{Y: v.Y, X: v.X, Channel: v.Channel},
			Index: append([]int(nil), v.Index...), FlipY: v.FlipY, FlipX: v.FlipX, Colormap: s.Colormap, Range: s.RangeMode,
			Zoom: in.cam.Scale(), PanX: in.cam.Pan.X, PanY: in.cam.Pan.Y}
		if s.RangeMode == inspect.Manual {
			st.View.Range = "" // a typed range is not kept in links
		}
	}
	if in.ov != nil {
		st.Mask = in.ov.address()
	}
	if in.bx != nil {
		st.Boxes = in.bx.address()
	}
	if in.cmp != nil {
		st.Compare = in.cmp.address()
	}
	actionInspectState.Send(ctx, st)
}

// restore applies a link's state to the session; what does not apply to
// this tensor (a dimension out of range, an unknown colormap) is skipped.
func restore(s *inspect.Session, r viewstate.View) {
	if r.Physical {
		s.SetPhysical(true)
	}
	if a := r.Axes; a != nil {
		s.SetAxisY(a.Y)
		s.SetAxisX(a.X)
		s.SetChannel(a.Channel)
	}
	for k, i := range r.Index {
		s.SetIndex(k, i)
	}
	if r.FlipY != s.View.FlipY {
		s.FlipRows()
	}
	if r.FlipX != s.View.FlipX {
		s.FlipColumns()
	}
	if r.Colormap != "" {
		s.SetColormap(r.Colormap)
	}
	if r.Range != "" {
		s.SetRangeMode(r.Range)
	}
}

// load reads the tensor and opens a session on it when the target changed,
// and reports whether it did.
func (in *Inspector) load() bool {
	key := inspectKey{in.File, in.Col, in.Row}
	if key == in.target {
		return false
	}
	var style overlay.Style // a new column's: the default
	if in.ov != nil && key.file == in.target.file && key.col == in.target.col {
		style = in.ov.style // another row of the column keeps the style chosen
	}
	var carry *boxCarry // and its boxes' column and format
	if in.bx != nil && key.file == in.target.file && key.col == in.target.col {
		carry = in.bx.carry()
	}
	in.bx = nil
	in.target, in.session, in.ov, in.cmp, in.err, in.cam = key, nil, nil, nil, "", inspect.Camera{}
	t, err := in.File.Tensor(in.Row, in.Col)
	switch {
	case errors.Is(err, tensorext.ErrNullTensor):
		in.err = "this tensor is null"
	case err != nil:
		in.err = err.Error()
	default:
		in.session = inspect.NewSession(t, histogramBins)
		r := in.Restore
		if r != nil && (r.Field != in.File.Fields()[in.Col].Name || r.Row != in.Row) {
			r = nil // a link's state of another tensor
		}
		var mask *string // the link's mask, nil for the default
		if r != nil && r.Mask != nil && r.Mask.Column != nil {
			mask = r.Mask.Column
			style = linkStyle(style, r.Mask)
		}
		in.ov = newOverlay(in.File, in.Row, in.Col, style)
		in.bx = newBoxes(in.File, in.Row, in.Col, t, carry)
		in.cmp = newCompare(in.File, in.Row, in.Col, t, in.ov.cols)
		if r != nil {
			in.cmp.restore(r.Compare)
			restore(in.session, r.View)
			if v := r.View; v.Zoom >= 1 {
				in.cam = inspect.Camera{Zoom: v.Zoom, Pan: inspect.Point{X: v.PanX, Y: v.PanY}}
			}
			if mask != nil {
				in.ov.restore(*mask)
			}
			in.bx.restore(r.Boxes)
		}
	}
	return true
}

// command applies a change to the session; the inspector and its parts
// redraw (a change that does not apply redraws nothing).
func (in *Inspector) command(ctx app.Context, cmd func(*inspect.Session) bool) {
	if !in.apply(cmd) {
		ctx.PreventUpdate()
		return
	}
	in.report(ctx)
}

// overlayCommand applies a change to the overlay (OverlayControls).
func (in *Inspector) overlayCommand(ctx app.Context, cmd func(*overlayState) bool) {
	if in.ov == nil || !cmd(in.ov) {
		ctx.PreventUpdate()
		return
	}
	in.report(ctx)
}

// apply runs cmd on the session and reports whether it changed anything.
func (in *Inspector) apply(cmd func(*inspect.Session) bool) bool {
	return in.session != nil && cmd(in.session)
}

func (in *Inspector) close(ctx app.Context) {
	hideInspector()
	actionCloseInspect.Send(ctx)
}

// Render draws the dialog.
func (in *Inspector) Render() app.UI {
	in.load() // Render runs before OnMount
	field := in.File.Fields()[in.Col]
	return app.Div().Class("inspector-backdrop").Body(
		app.Div().Class("inspector").Role("dialog").Aria("modal", "true").Aria("label", "Tensor inspector").
			Attr("data-role", "inspector").Attr("data-field", field.Name).Attr("data-row", in.Row).
			TabIndex(-1).Body(
			app.Header().Class("inspector-head").Body(
				app.H2().Text(fmt.Sprintf("%s, row %d", field.Name, in.Row)),
				in.shardNote(),
				app.Button().Type("button").Class("close").Attr("data-action", "close").Aria("label", "Close").Text("×").
					OnClick(func(ctx app.Context, e app.Event) { in.close(ctx) }),
			),
			app.If(in.session == nil, func() app.UI { return app.P().Class("alert").Role("alert").Text(in.err) }).
				Else(func() app.UI { return in.body() }),
		),
	)
}

// shardNote names the file of a dataset the row is in, nothing for a
// file of its own.
func (in *Inspector) shardNote() app.UI {
	_, name, ok := in.File.ShardOf(in.Row)
	return app.If(ok, func() app.UI {
		return app.Span().Class("inspector-shard").Attr("data-role", "inspector-shard").Text("in " + name)
	})
}

func (in *Inspector) body() app.UI {
	if in.comparing() {
		return in.compareBody()
	}
	s := in.session
	t := s.Shown()
	renderErr := ""
	if s.RenderErr != nil {
		renderErr = s.RenderErr.Error()
	}
	ov := in.ov
	img, mask, off := ov.picture(s)
	probe := masks.Probe{Field: ov.field(), Mask: mask, Kind: ov.layer.Kind, Names: ov.layer.Names, Void: ov.layer.Void, Threshold: ov.style.Threshold}
	img, labels, boxOff := in.bx.picture(s, img)
	boxControls, boxList := in.boxParts(labels, boxOff)
	return app.Div().Class("inspector-body").Body(
		app.Div().Class("inspector-main").Body(
			in.controls(),
			&OverlayControls{Choices: ov.choices, Chosen: ov.chosen, Opacity: ov.style.Opacity, Outline: ov.style.Outline,
				Legend: ov.legend(), Unnamed: ov.unnamed(), Names: len(ov.layer.Names), Off: off, Note: ov.note, OnChange: in.overlayCommand},
			boxControls,
			in.compareControls(),
			app.If(renderErr != "", func() app.UI {
				return app.Div().Body(
					app.P().Class("render-error").Role("status").Text(renderErr),
					// What cannot be drawn is still shown as numbers.
					app.Pre().Class("values").Attr("data-role", "values").Text(summary.ValuesText(t, maxValuesText)),
				)
			}),
			app.If(s.Image != nil, func() app.UI {
				return &SliceView{Tensor: t, View: s.View, Img: img, Start: in.cam, Probe: probe, Labels: labels, Boxes: in.bx.probe()}
			}),
			app.If(s.Image != nil && s.View.Channel < 0, func() app.UI {
				return &Colorbar{Colormap: s.Colormap, Range: s.Range}
			}),
		),
		app.Aside().Class("inspector-side").Body(
			boxList,
			&StatsPanel{Stats: s.Stats, Shape: t.Shape, ValueType: t.ValueType().String()},
			in.columnPanel(),
			&ExportPanel{Tensor: t, Image: img, Name: fmt.Sprintf("%s-row%d", safeName(in.File.Fields()[in.Col].Name), in.Row)},
		),
	)
}

// columnPanel is the column statistics' panel: the inspected column's
// element statistics, as the model has them.
func (in *Inspector) columnPanel() app.UI {
	c := in.Column
	return &colstats.ColumnStatsPanel{Inline: true, Col: in.Col, X: c.X, Status: c.Status, Progress: c.Progress, Sum: c.Sum, Unread: c.Unread, Err: c.Err}
}
