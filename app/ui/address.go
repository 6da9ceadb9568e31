package ui

import (
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/session"
	"github.com/tensorview/tensorview/app/ui/grid"
	"github.com/tensorview/tensorview/app/ui/open"
	"github.com/tensorview/tensorview/app/viewstate"
)

// The view state has one owner, the Viewer's viewstate.Model: the Viewer
// tells it what the user and the browser did (v.do) and carries out what it
// answers here: history writes (replaceState in place, pushState when the
// inspector opens, history.back() when it closes, so that Back and Forward
// close and reopen it), timers, the embed message and opening the file a
// history entry names. Embedded in an iframe it only replaces (an iframe's
// entries would join the host page's history).
//
// The popstate event is the Viewer's alone: go-app's own handler (which
// would call OnNav for every Back and Forward) is removed, and OnNav is
// left with what only go-app sees (the page loaded, a link within it
// followed).
//
// While the address is behind the view (a write scheduled, a Back of the
// page's own under way) the root element says data-address="pending",
// then "settled": tests wait for it.

// location carries out the address's effects for the Viewer: history
// writes and timers, the root's data-address mark, the view's link and
// the embed messages (embed.go).
type location struct {
	v    *Viewer
	mark addressMark // data-address as last set
	note string      // a short status in the top bar ("link copied")
}

// stepMark is the history.state of an entry the Model pushed for the
// inspector: a page reloaded on it still closes it by going Back.
const stepMark = "inspector"

// handleAddress takes the popstate event from go-app: Back and Forward go
// to the Model. (The actions that keep the address up to date, the first
// row and the inspector's settings, are registered by handleActions.)
func (l *location) handleAddress(ctx app.Context) {
	app.Window().Set("onpopstate", nil)
	pop := app.FuncOf(func(this app.Value, args []app.Value) any {
		query, step := entry()
		if q, _ := url.ParseQuery(strings.TrimPrefix(query, "?")); !q.Has("f") && l.v.st().Inspector != nil {
			hideInspector() // Back closes it: a click right after lands on the rows
		}
		ctx.Dispatch(func(ctx app.Context) {
			l.v.Apply(ctx, session.Address{A: viewstate.PopState{Query: query, Step: step}})
		})
		return nil
	})
	app.Window().Call("addEventListener", "popstate", pop)
}

// entry is the current history entry's query and whether the Model pushed
// it for the inspector.
func entry() (query string, step bool) {
	st := app.Window().Get("history").Get("state")
	step = st.Truthy() && st.Type() == app.TypeObject && st.Get("tensorview").Type() == app.TypeString &&
		st.Get("tensorview").String() == stepMark
	return app.Window().Get("location").Get("search").String(), step
}

// history carries out an effect of the address's rules.
func (l *location) history(ctx app.Context, e viewstate.Effect) {
	switch e := e.(type) {
	case viewstate.Replace:
		writeHistory("replaceState", e.Query, e.Step)
	case viewstate.Push:
		writeHistory("pushState", e.Query, true)
	case viewstate.Back:
		app.Window().Get("history").Call("back")
	case viewstate.Schedule:
		gen := e.Gen
		ctx.After(viewstate.WriteDelay, func(ctx app.Context) {
			l.v.Apply(ctx, session.Address{A: viewstate.Flush{Gen: gen}})
			if !l.v.st().Embed {
				ctx.PreventUpdate()
			}
		})
	case viewstate.WaitTraversal:
		gen := e.Gen
		ctx.After(viewstate.TraversalTimeout, func(ctx app.Context) {
			l.v.Apply(ctx, session.Address{A: viewstate.TraversalLost{Gen: gen}})
		})
	case viewstate.Post:
		l.post(map[string]any{"type": "tensorview:state", "state": e.Query, "file": e.File, "link": l.link()})
	case viewstate.OpenURL:
		l.v.opener.OpenURL(ctx, e.URL)
	}
}

// markAddress sets the root's data-address: "settled" once the address
// shows the view, "pending" while a write or a traversal is due.
func (l *location) markAddress() {
	if settled := l.v.model.Settled(); settled != l.mark.settled || !l.mark.marked {
		l.mark = addressMark{settled: settled, marked: true}
		mark := "pending"
		if settled {
			mark = "settled"
		}
		app.Window().Get("document").Get("documentElement").Call("setAttribute", "data-address", mark)
	}
}

// writeHistory writes query ("?…" or "") into the history with method.
func writeHistory(method, query string, step bool) {
	loc := app.Window().Get("location")
	mark := "view"
	if step {
		mark = stepMark
	}
	app.Window().Get("history").Call(method, map[string]any{"tensorview": mark}, "", loc.Get("pathname").String()+query)
}

// st is the view state (empty before OnMount).
func (v *Viewer) st() viewstate.State {
	if v.model == nil {
		return viewstate.State{}
	}
	return v.model.State()
}

// inspected is the tensor the inspector shows, if it is open on a field of
// the record batch shown.
func (v *Viewer) inspected() (t grid.Target, ok bool) {
	in := v.st().Inspector
	if in == nil || v.File() == nil {
		return t, false
	}
	for i, f := range v.session().Shown().Fields() {
		if f.Name == in.Field {
			return grid.Target{Col: i, Row: in.Row}, true
		}
	}
	return t, false
}

// search is the address's query ("?…", or "" for none) for st, keeping
// the parameters of the current address that st does not own (cache=).
func search(st viewstate.State) string {
	cur, _ := url.ParseQuery(strings.TrimPrefix(app.Window().Get("location").Get("search").String(), "?"))
	if q := st.Encode(cur); q != "" {
		return "?" + q
	}
	return ""
}

// fullLink is link() where the page shows it (embedded), else "" (the
// link is hidden, and building it costs the viewer's renders while
// scrolling).
func (l *location) fullLink() string {
	if !l.v.st().Embed {
		return ""
	}
	return l.link()
}

// link is the address of the view for the full page (embed mode off),
// with the file's URL absolute (the link may be shared anywhere).
func (l *location) link() string {
	st := l.v.st()
	st.Embed, st.Origin = false, ""
	page := app.Window().URL()
	if ref, err := url.Parse(st.URL); err == nil && st.URL != "" {
		st.URL = page.ResolveReference(ref).String()
	}
	return page.Scheme + "://" + page.Host + page.Path + search(st)
}

// copyLink copies the view's link to the clipboard.
func (l *location) copyLink(ctx app.Context, e app.Event) {
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		l.note = "copy the address from the address bar"
		return
	}
	open.Then(clip.Call("writeText", l.link()), func(app.Value) {
		ctx.Dispatch(func(app.Context) { l.note = "link copied" })
	}, func(reason string) {
		ctx.Dispatch(func(app.Context) { l.note = "could not copy the link: " + reason })
	})
}

// hideInspector hides the inspector and lets clicks through it at once,
// before the render that removes it (go-app renders in the next frame): a
// click right after Escape, × or Back reaches the rows, as the person
// sees them. showInspector undoes it; the Viewer calls it once the
// inspector is gone, or when one opens.
func hideInspector() {
	app.Window().Get("document").Get("documentElement").Call("setAttribute", "data-closing", "")
}

func showInspector() {
	app.Window().Get("document").Get("documentElement").Call("removeAttribute", "data-closing")
}
