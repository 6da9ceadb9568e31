//go:build !wasm

package e2e

import (
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestThemesAndAccessibility opens the empty page, a file and the inspector
// with the system in light and in dark mode: the colours follow
// prefers-color-scheme, axe-core finds no serious or critical violation in
// either theme, and the theme button overrides the system and is
// remembered across a reload.
func TestThemesAndAccessibility(t *testing.T) {
	t.Parallel()
	skipWithoutSite(t)
	b := newBrowser(t)
	background := func() string {
		var bg string
		b.eval(`getComputedStyle(document.documentElement).backgroundColor`, &bg)
		return bg
	}
	check := func(where string) {
		t.Helper()
		for _, v := range b.axe() {
			t.Errorf("%s: axe %s (%s): %s at %v", where, v.ID, v.Impact, v.Help, v.Nodes)
		}
	}
	for _, scheme := range []struct{ name, bg string }{{"light", "rgb(255, 255, 255)"}, {"dark", "rgb(18, 20, 23)"}} {
		b.run(emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme.name}}))
		b.run(chromedp.Navigate(b.base))
		b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-role=dropzone]') !== null`)
		if got := background(); got != scheme.bg {
			t.Errorf("%s: page background %s, want %s", scheme.name, got, scheme.bg)
		}
		check(scheme.name + " empty page")
		b.upload("../testdata/js_images.arrow")
		b.waitOpened("js_images.arrow")
		check(scheme.name + " js_images.arrow")
		b.screenshot("theme-" + scheme.name + "-file")
		b.run(chromedp.Click(`[data-row="0"] [data-tensor][data-field="rgb"]`, chromedp.ByQuery))
		b.waitFor(`document.querySelector('[data-role=inspector] canvas[data-role=slice]') !== null`)
		check(scheme.name + " inspector")
		b.screenshot("theme-" + scheme.name + "-inspector")
	}
	// The system is dark; the button chooses light, then dark, then the
	// system's again; a reload keeps the choice.
	b.run(chromedp.Navigate(b.base))
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-action=theme]') !== null`)
	b.run(chromedp.Click(`[data-action=theme]`, chromedp.ByQuery))
	b.waitFor(`document.documentElement.dataset.theme === 'light'`)
	if got := background(); got != "rgb(255, 255, 255)" {
		t.Errorf("light chosen on a dark system: background %s", got)
	}
	b.run(chromedp.Reload())
	b.waitFor(`document.querySelector('[data-state=empty][data-ready=true] [data-action=theme]') !== null && document.documentElement.dataset.theme === 'light'`)
	var label string
	b.eval(`document.querySelector('[data-action=theme]').textContent`, &label)
	if label != "Theme: light" {
		t.Errorf("after a reload the button says %q, want Theme: light", label)
	}
	b.run(chromedp.Click(`[data-action=theme]`, chromedp.ByQuery))
	b.waitFor(`document.documentElement.dataset.theme === 'dark'`)
	b.run(chromedp.Click(`[data-action=theme]`, chromedp.ByQuery))
	b.waitFor(`document.documentElement.dataset.theme === undefined`)
	if got := background(); got != "rgb(18, 20, 23)" {
		t.Errorf("back to the system's (dark): background %s", got)
	}
}
