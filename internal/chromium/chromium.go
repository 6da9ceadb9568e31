package chromium

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/chromedp/chromedp"
)

// Width and Height are the window size, in CSS pixels, of every browser
// Start opens.
const Width, Height = 1280, 900

// Path returns the Chromium to run: $CHROMIUM if set, else `chromium` on
// PATH (Debian's package; `make chromium` installs it). The error says how
// to get one.
func Path() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	p, err := exec.LookPath("chromium")
	if err != nil {
		return "", fmt.Errorf("Debian's chromium is needed (make chromium installs it): %w", err)
	}
	return p, nil
}

// Browser is one headless Chromium with a profile of its own. Ctx is a
// chromedp context of its first tab; the browser starts at the first
// chromedp.Run on it (which must not have a deadline of its own: its end
// would close the browser).
type Browser struct {
	Ctx         context.Context
	cancelTab   context.CancelFunc
	cancelAlloc context.CancelFunc
	profile     string
}

// Start prepares a browser with the flags both tests and benchmarks use
// (headless, no sandbox, no GPU, no QUIC, no first-run, background
// networking, component updates or sync; a Width×Height window) plus
// extra ones, in a new temporary profile directory. Close ends it.
func Start(extra ...chromedp.ExecAllocatorOption) (*Browser, error) {
	path, err := Path()
	if err != nil {
		return nil, err
	}
	// Not a test's TempDir: Chromium's helpers may still write to the
	// profile while a test's own cleanup runs; Close retries the removal.
	profile, err := os.MkdirTemp("", "tensorview-chromium-")
	if err != nil {
		return nil, err
	}
	opts := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(profile),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(Width, Height),
	}, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	return &Browser{Ctx: ctx, cancelTab: cancelTab, cancelAlloc: cancelAlloc, profile: profile}, nil
}

// Close ends the browser and removes its profile. Closing a tab whose page
// is stuck in wasm can wait: after 10 s the browser process is killed.
func (b *Browser) Close() {
	done := make(chan struct{})
	go func() { b.cancelTab(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
	}
	b.cancelAlloc()
	// Chromium's helpers may still write to the profile for a moment.
	for range 20 {
		if os.RemoveAll(b.profile) == nil {
			if _, err := os.Stat(b.profile); os.IsNotExist(err) {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
}
