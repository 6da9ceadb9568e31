package kit

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Action is a go-app action whose value is a T: send and handle are its two
// ends, and handle is the one place the value's type is checked.
type Action[T any] string

// Send sends the action with its value.
func (a Action[T]) Send(ctx app.Context, v T) {
	ctx.NewActionWithValue(string(a), v)
}

// Handle registers h for the action (handler).
func (a Action[T]) Handle(ctx app.Context, h func(app.Context, T)) {
	ctx.Handle(string(a), a.Handler(h))
}

// Handler is h as the action's go-app handler: a value that is not a T (a
// sender that does not use send) is dropped, and logged.
func (a Action[T]) Handler(h func(app.Context, T)) app.ActionHandler {
	return func(ctx app.Context, act app.Action) {
		v, ok := act.Value.(T)
		if !ok {
			app.Logf("tensorview: action %s carries a %T, not a %T", string(a), act.Value, v)
			return
		}
		h(ctx, v)
	}
}

// Signal is a go-app action without a value: send and handle are its two
// ends.
type Signal string

// Send sends the action.
func (s Signal) Send(ctx app.Context) {
	ctx.NewAction(string(s))
}

// Handle registers h for the action.
func (s Signal) Handle(ctx app.Context, h func(app.Context)) {
	ctx.Handle(string(s), func(ctx app.Context, _ app.Action) { h(ctx) })
}
