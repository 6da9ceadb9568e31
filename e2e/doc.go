// Package e2e holds tensorview's end-to-end tests: they serve the static
// build of the site and drive it in headless Chromium (Debian's chromium,
// started by internal/chromium) as a person would, and check what the page
// shows against what the files hold. The package has no code of its own:
// everything is in its _test.go files.
//
// Run them from the repository's root:
//
//	make test   # builds the site and runs every test, these included
//
// or, with a static build in dist served under /tensorview:
//
//	make static DIST=dist BASE=/tensorview BROTLI=6
//	TENSORVIEW_FULL=1 TENSORVIEW_DIST=$PWD/dist TENSORVIEW_BASE=/tensorview \
//	  GOFLAGS=-tags=arrow_json_stdlib go test -count=1 ./e2e/
//
// TENSORVIEW_DIST is the static build (an absolute path: the tests run in
// this directory) and TENSORVIEW_BASE the URL path it is served under.
// Without TENSORVIEW_DIST the tests skip with a one-line reason, unless
// TENSORVIEW_FULL is set (make test), under which nothing skips.
// TENSORVIEW_SCREENSHOTS=dir (an existing directory; relative to e2e/)
// saves a screenshot of what a failing test saw and of the views the tests
// name; TENSORVIEW_CONSOLE=1 logs everything the
// page's console says. The tests read ../testdata (the files and the values
// their writers wrote, and testdata/node_modules: make test installs it),
// the fuzz corpora of ../tensorext and ../app/decode, and
// ../../shared/interop when it is there.
//
// The files:
//
//	harness_test.go        the browser: serving the build, starting Chromium, page helpers
//	                       (run, eval, waitFor, upload, drop, waitOpened, screenshot, axe…)
//	fixtures_test.go       writers of the Arrow and Parquet files the tests open
//	expected_test.go       what the generators wrote (testdata/*_expected.json) and checks against it
//	open_test.go           opening files: file input, drop, samples, broken files, a Tensor message
//	boot_test.go           the page before and while the wasm starts
//	update_test.go         a new build while a page is open
//	warmup_test.go         the empty page's hidden warm-up
//	url_test.go            open by URL, deep links, embedding
//	history_test.go        the address, Back and Forward
//	rows_test.go           the rows grid: scrolling, row heights, many columns, resizing, keyboard
//	large_test.go          large files, slow disks, cancelling reads
//	inspector_test.go      the tensor inspector, its column statistics, touch
//	shell_test.go          the page at window sizes, the schema panel
//	accessibility_test.go  themes and axe-core
//	security_test.go       the Content Security Policy, hostile files
//	dialects_test.go       tensor dialects (Ray, Hugging Face, Daft, Lance, nested lists)
//	images_test.go         cells of encoded images
//	boxes_test.go          detection boxes over the inspector's picture and the thumbnails
//	nested_test.go         nested record batches (arrow.turtle)
//	parquet_test.go        Parquet files
//	wasmexec_test.go       the committed wasm_exec.js is go-app's
package e2e
