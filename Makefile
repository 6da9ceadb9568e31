# tensorview: `make run` serves the app, `make test` runs every test.
GO      ?= go
PORT    ?= 8080
DIST    ?= dist
BASE    ?=
# The sub-path the end-to-end test serves the static build under, as GitHub
# Pages does for a project site.
E2E_BASE ?= /tensorview
SAMPLES := js_big.arrow js_images.arrow js_permuted.arrow js_variable.arrow
GO_SOURCES := $(shell find . -name '*.go' -not -path './dist/*' -not -path './testdata/node_modules/*') go.mod go.sum

.PHONY: run static wasm samples test lint chromium testdata-js clean

wasm: web/app.wasm samples

web/app.wasm: $(GO_SOURCES)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o $@ .

samples:
	@mkdir -p web/samples
	@for f in $(SAMPLES); do cp testdata/$$f web/samples/$$f; done

# Serve the app at http://127.0.0.1:$(PORT).
run: wasm
	$(GO) run . serve -addr 127.0.0.1:$(PORT)

# Write the static site to $(DIST); BASE is the URL path it is served under
# (for GitHub Pages: BASE=/<repository>).
static: wasm
	rm -rf $(DIST)
	$(GO) run . static -dir $(DIST) -base "$(BASE)"

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet ./app/...

# Debian's chromium for the end-to-end tests (installed only when missing).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing chromium"; \
	  SUDO=$$(command -v sudo >/dev/null 2>&1 && [ "$$(id -u)" != 0 ] && echo sudo); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq --no-install-recommends chromium >/dev/null; }

# npm's apache-arrow, @uwdata/flechette and parquet-wasm at the versions
# testdata/package-lock.json pins: the tests read files back with them.
testdata/node_modules: testdata/package.json testdata/package-lock.json
	cd testdata && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# Regenerate the files the non-Go writers write (committed; see testdata/README.md).
testdata-js: testdata/node_modules
	cd testdata && node gen_js.mjs && node gen_nongo.mjs

# Everything: formatting, vet, unit tests, and the browser tests against the
# static build served under a sub-path.
test: lint chromium testdata/node_modules
	$(MAKE) static DIST=$(DIST) BASE=$(E2E_BASE)
	TENSORVIEW_DIST=$(abspath $(DIST)) TENSORVIEW_BASE=$(E2E_BASE) $(GO) test -count=1 ./...

clean:
	rm -rf $(DIST) web/app.wasm web/samples
