package ui

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Themes the toggle cycles through: "" follows the system
// (prefers-color-scheme), "light" and "dark" override it.
var themes = []string{"", "light", "dark"}

// themeKey is the local storage key that remembers the choice.
const themeKey = "tensorview-theme"

// nextTheme is the theme after t in the toggle's cycle.
func nextTheme(t string) string {
	for i, x := range themes {
		if x == t {
			return themes[(i+1)%len(themes)]
		}
	}
	return themes[0]
}

// themeLabel is what the toggle says for theme t.
func themeLabel(t string) string {
	switch t {
	case "light":
		return "Theme: light"
	case "dark":
		return "Theme: dark"
	}
	return "Theme: system"
}

// ThemeToggle switches between the system's colour scheme, light and dark,
// and remembers the choice in local storage. The page's colours follow the
// data-theme attribute of the root element (web/style.css).
type ThemeToggle struct {
	app.Compo
	theme string
}

// OnMount applies the remembered theme.
func (t *ThemeToggle) OnMount(ctx app.Context) {
	var saved string
	if ctx.LocalStorage().Get(themeKey, &saved) == nil && (saved == "light" || saved == "dark") {
		t.theme = saved
	}
	t.apply()
}

func (t *ThemeToggle) apply() {
	root := app.Window().Get("document").Get("documentElement")
	if t.theme == "" {
		root.Call("removeAttribute", "data-theme")
		return
	}
	root.Call("setAttribute", "data-theme", t.theme)
}

// Render draws the button.
func (t *ThemeToggle) Render() app.UI {
	return app.Button().Type("button").Class("theme").Attr("data-action", "theme").Attr("data-theme", t.theme).
		Title("Colour theme: follow the system, light or dark").Body(
		// "Theme: " is hidden on phones (still read out).
		app.Span().Class("theme-word").Text("Theme: "), app.Text(strings.TrimPrefix(themeLabel(t.theme), "Theme: ")),
	).
		OnClick(func(ctx app.Context, e app.Event) {
			t.theme = nextTheme(t.theme)
			ctx.LocalStorage().Set(themeKey, t.theme)
			t.apply()
		})
}
