// Command tensorview is the tensorview web app: a go-app WebAssembly page
// that shows the tensors in Arrow files.
//
// In the browser (GOOS=js GOARCH=wasm, built to web/app.wasm) it runs the
// user interface. Natively it serves or writes the site (package app/site):
//
//	tensorview serve  [-addr 127.0.0.1:8080]          # serve the app
//	tensorview static [-dir dist] [-base /tensorview] [-brotli 11] # write a static site,
//	                                                             # with .gz and .br copies
package main

import (
	"fmt"
	"os"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/tensorview/tensorview/app/site"
	"github.com/tensorview/tensorview/app/ui"
)

func main() {
	app.Route("/", func() app.Composer { return &ui.Viewer{} })
	app.RunWhenOnBrowser()

	if err := site.Run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "tensorview:", err)
		os.Exit(1)
	}
}
