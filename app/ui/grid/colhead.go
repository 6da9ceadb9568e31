package grid

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/decode"
	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/colstats"
	"github.com/tensorview/tensorview/app/ui/kit"
)

// ColumnHead is column Col's header: its name, which sorts by the column
// (click, or Enter/Space on it: ascending, descending, none; a tensor
// column by the statistic its select chooses, mean first), aria-sort and
// an arrow saying the sort, an image column's mask toggle
// (masktoggle.go), the button of its statistics (package colstats) and
// the edge that resizes it (actionResize, which the rows table carries
// out).
//
// The table draws its headers by position, so one ColumnHead may show
// another column after a horizontal scroll: its handlers read the
// component's fields when they run, never values captured when drawn.
type ColumnHead struct {
	app.Compo
	Col   int
	Field decode.FieldInfo
	// Head is what the header sorts by; Sorts is false for a column the
	// header cannot sort by.
	Head  session.ColSort
	Sorts bool
	Sort  session.SortShown // the sort the headers show
	// Mask is the mask over the column's thumbnails that its toggle turns
	// on and off; nil: the column has none.
	Mask *session.ThumbMask
}

// colResize is a step of a column resize, from its header's edge: the
// pointer went down (W the column's drawn width, -1 unknown), moved or
// went up at X (CSS pixels), or the edge was double-clicked (Fit).
type colResize struct {
	Col      int
	Down, Up bool
	Fit      bool
	X        float64
	W        int
}

const actionResize kit.Action[colResize] = "tv/col-resize"

// headOf is the header of column c (field f) of a table whose columns'
// headers sort by heads (nil: none), showing sort and masks.
func headOf(c int, f decode.FieldInfo, heads []session.ColSort, sort session.SortShown, masks []session.ThumbMask) *ColumnHead {
	h := &ColumnHead{Col: c, Field: f, Sort: sort, Mask: maskOf(masks, c)}
	if c < len(heads) {
		h.Head, h.Sorts = heads[c], true
	}
	return h
}

// Render draws the header.
func (h *ColumnHead) Render() app.UI {
	f := h.Field
	head := app.Div().Class("col-head").Role("columnheader").Aria("colindex", h.Col+2).Attr("data-col", h.Col).Title(f.Type)
	mask := h.maskToggle() // masktoggle.go
	if !h.Sorts || (!h.Head.Plain && len(h.Head.Stats) == 0) {
		return head.Body(app.Span().Class("col-name").Text(f.Name), mask, h.resizeHandle())
	}
	s, c := h.Sort, h.Col
	label := "Sort by " + f.Name
	if s.Col == c && s.Fn != "" {
		label = "Sort by " + s.Fn + "(" + f.Name + ")"
	} else if len(h.Head.Stats) > 0 {
		label = "Sort by mean(" + f.Name + ")"
	}
	return head.Aria("sort", s.Aria(c)).Body(
		app.Button().Type("button").Class("col-sort").Attr("data-action", "sort").Title(label).Body(
			app.Span().Class("col-name").Text(f.Name),
			app.If(s.Col == c && s.Fn != "", func() app.UI { return app.Span().Class("sort-fn").Text(s.Fn) }),
			app.Span().Class("sort-mark").Aria("hidden", true).Text(s.Arrow(c)),
		).OnClick(func(ctx app.Context, e app.Event) {
			ActionSortCol.Send(ctx, SortAsk{Col: h.Col})
		}),
		app.If(len(h.Head.Stats) > 0, func() app.UI { return h.statSelect() }),
		mask,
		h.statsButton(),
		h.resizeHandle(),
	)
}

// statsButton opens the column's statistics, of the statistic the column
// is sorted by if any.
func (h *ColumnHead) statsButton() app.UI {
	label := "Statistics of " + h.Field.Name
	return app.Button().Type("button").Class("col-stats").Attr("data-action", "column-stats").
		Aria("label", label).Title(label).Body(
		app.Span().Class("col-stats-icon").Aria("hidden", true).Body(app.Span(), app.Span(), app.Span()),
	).OnClick(func(ctx app.Context, e app.Event) {
		fn := ""
		if h.Sort.Col == h.Col {
			fn = h.Sort.Fn
		}
		colstats.ActionColStats.Send(ctx, colstats.StatsAsk{Col: h.Col, Fn: fn})
	})
}

// statSelect chooses the statistic a tensor column sorts by ("stat":
// none).
func (h *ColumnHead) statSelect() app.UI {
	cur, stats := "", h.Head.Stats
	if h.Sort.Col == h.Col {
		cur = h.Sort.Fn
	}
	return app.Select().Class("sort-stat").Attr("data-role", "sort-stat").Aria("label", "Sort "+h.Field.Name+" by a statistic").
		OnChange(func(ctx app.Context, e app.Event) {
			fn := ctx.JSSrc().Get("value").String()
			ActionSortCol.Send(ctx, SortAsk{Col: h.Col, Fn: fn, Clear: fn == ""})
		}).Body(
		app.Option().Value("").Selected(cur == "").Text("stat"),
		app.Range(stats).Slice(func(i int) app.UI {
			return app.Option().Value(stats[i]).Selected(stats[i] == cur).Text(stats[i])
		}),
	)
}

// resizeHandle is the edge of the header: drag it to resize the column,
// double-click it to fit the column to what it shows.
func (h *ColumnHead) resizeHandle() app.UI {
	return app.Div().Class("col-resize").Attr("data-action", "resize-col").Attr("data-col", h.Col).Aria("hidden", true).
		On("pointerdown", func(ctx app.Context, e app.Event) {
			e.PreventDefault()
			e.StopImmediatePropagation()
			ctx.JSSrc().Call("setPointerCapture", e.Get("pointerId"))
			w := -1
			if el := h.JSValue(); el.Truthy() {
				w = int(el.Call("getBoundingClientRect").Get("width").Float())
			}
			actionResize.Send(ctx, colResize{Col: h.Col, Down: true, X: e.Get("clientX").Float(), W: w})
			ctx.PreventUpdate()
		}).
		On("pointermove", func(ctx app.Context, e app.Event) {
			actionResize.Send(ctx, colResize{Col: h.Col, X: e.Get("clientX").Float()})
			ctx.PreventUpdate()
		}).
		On("pointerup", func(ctx app.Context, e app.Event) {
			actionResize.Send(ctx, colResize{Col: h.Col, Up: true})
			ctx.PreventUpdate()
		}).
		OnDblClick(func(ctx app.Context, e app.Event) {
			actionResize.Send(ctx, colResize{Col: h.Col, Fit: true})
			ctx.PreventUpdate()
		})
}
