# tensorview: `make run` serves the app, `make test` runs every test.
GO      ?= go
PORT    ?= 8080
DIST    ?= dist
BASE    ?=
# The sub-path the end-to-end test serves the static build under, as GitHub
# Pages does for a project site.
E2E_BASE ?= /tensorview
# Quality of the brotli copies make static writes (0-11; 11 takes ~50 s for
# the wasm, 6 under a second).
BROTLI  ?= 11
# Where make bench-browser writes its Arrow files and results.
BENCH_DIR ?= /tmp/tensorview-bench
# Build tags of every go command make runs (the wasm, tests, benches, vet):
# arrow_json_stdlib makes arrow-go's internal/json use encoding/json (linked
# anyway) instead of github.com/goccy/go-json, 3 MB less wasm (make size).
# Exported in GOFLAGS, so the go commands the tools start inherit them too.
TAGS    ?= arrow_json_stdlib
# The caller's own GOFLAGS (kept through sub-makes), for builds of other trees.
ifeq ($(origin USER_GOFLAGS),undefined)
USER_GOFLAGS := $(GOFLAGS)
endif
export USER_GOFLAGS
export GOFLAGS := $(strip $(GOFLAGS) -tags=$(TAGS))
SAMPLES := js_big.arrow js_images.arrow js_permuted.arrow js_variable.arrow
GO_SOURCES := $(shell find . -name '*.go' -not -path './dist/*' -not -path './testdata/node_modules/*') go.mod go.sum

.PHONY: run static wasm samples vendor test lint chromium testdata-js clean size bench-browser bench-boot ref-tree ref-wasm ref-static fuzz FORCE

wasm: web/app.wasm samples vendor web/tzdata.zip

# STRIP= keeps the function names (for profiles); .ldflags remembers the
# flags and tags of the last build, so that changing them rebuilds. The
# linker's data segments are then joined across short runs of zeros
# (internal/wasmpack: 3.17 -> 3.01 MB brotli 11, the memory the same).
STRIP ?= -s -w
.ldflags: FORCE
	@echo '$(STRIP) $(TAGS)' | cmp -s - $@ || echo '$(STRIP) $(TAGS)' > $@
FORCE:

# Packages of the wasm compiled without inlining (-l): the page's
# components and go-app, and what only they or net/http use: no per-value
# loops there, while inlining costs code and more so the inline trees and
# tables of the pclntab in the data section (make size; docs/benchmarks.md's
# Payload). The readers' per-value code, the kernels and pictures
# (app/decode, query, summary, inspect, overlay, tensorext, arrow/array:
# -l there made app/query's sort and filter 10 % slower), image,
# reflect and syscall/js (go-app's diff) and the runtime keep it.
NOINLINE := github.com/maxence-charriere/go-app/v10/... \
  $(addprefix github.com/tensorview/tensorview/app/,ui/... session viewstate dialect turtle listing browser remote scan) \
  $(addprefix github.com/tensorview/tensorview/internal/,extbase ipcverify flatbuf) \
  github.com/apache/arrow-go/v18/arrow/ipc \
  encoding/json fmt crypto/... mime/... regexp/... math/big log html net/url net/textproto time \
  internal/fmtsort os syscall bufio encoding/base64 encoding/hex vendor/golang.org/x/crypto/...
WASM_GCFLAGS := $(foreach p,$(NOINLINE),-gcflags=$(p)=-l)

web/app.wasm: $(GO_SOURCES) .ldflags Makefile
	GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_GCFLAGS) -ldflags="$(STRIP)" -o $@ .
	$(GO) run ./bench/payload pack $@

# Go's zone database (the zip time/tzdata would embed), which the page
# fetches the first time a named time zone is looked up (internal/tzload;
# tzdata_wasm.go). The Go that builds the wasm gives it.
web/tzdata.zip: FORCE
	@cp "$$($(GO) env GOROOT)/lib/time/zoneinfo.zip" $@.tmp && \
	  { cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@; }

samples:
	@mkdir -p web/samples
	@for f in $(SAMPLES); do cp testdata/$$f web/samples/$$f; done

# npm's @uwdata/flechette (pinned in testdata/package-lock.json) for the
# example page web/embed.html, which writes the Arrow data it embeds.
# npm's parquet-wasm (pinned there too; arrow-rs's Parquet reader as
# WebAssembly) into web/parquet/: its ES module build, which
# web/parquet-worker.js imports the first time a Parquet file is opened
# (never at page load; the service worker keeps it once fetched).
PARQUET_WASM := testdata/node_modules/parquet-wasm
# The Parquet engine web/parquet-worker.js imports: app/browser/parquetengine.js
# bundled by esbuild (pinned there too) with what it imports of npm's
# hyparquet (the pure-JS Parquet reader), @uwdata/flechette (Arrow IPC) into
# web/parquet/engine/parquet-engine.js (minified), and hyparquet-compressors'
# gzip, brotli and LZ4 and fzstd (ZSTD) into chunks beside it, imported only
# for files that use them; hyparquet's footer parser for parquet-wasm's
# files too (metadata.js and what it imports, unbundled as before).
HYPARQUET := testdata/node_modules/hyparquet
HYPARQUET_FILES := metadata.js constants.js convert.js schema.js thrift.js geoparquet.js wkb.js
ESBUILD_ALIASES := --alias:hyparquet-src=./$(HYPARQUET)/src --alias:hyparquet-compressors-src=./testdata/node_modules/hyparquet-compressors/src
vendor: testdata/node_modules
	@mkdir -p web/vendor web/parquet
	@cp testdata/node_modules/@uwdata/flechette/dist/flechette.min.js web/vendor/
	@cp testdata/node_modules/@uwdata/flechette/LICENSE web/vendor/flechette.LICENSE
	@cp testdata/node_modules/brotli-dec-wasm/pkg/brotli_dec_wasm.js testdata/node_modules/brotli-dec-wasm/pkg/brotli_dec_wasm_bg.wasm web/vendor/
	@cp testdata/node_modules/brotli-dec-wasm/LICENSE-MIT.txt web/vendor/brotli-dec-wasm.LICENSE-MIT
	@cp testdata/node_modules/brotli-dec-wasm/LICENSE-Apache.txt web/vendor/brotli-dec-wasm.LICENSE-Apache
	@cp $(PARQUET_WASM)/esm/parquet_wasm.js $(PARQUET_WASM)/esm/parquet_wasm_bg.wasm web/parquet/
	@cp $(PARQUET_WASM)/LICENSE_MIT web/parquet/LICENSE_MIT
	@cp $(PARQUET_WASM)/LICENSE_APACHE web/parquet/LICENSE_APACHE
	@mkdir -p web/parquet/hyparquet
	@cp $(addprefix $(HYPARQUET)/src/,$(HYPARQUET_FILES)) web/parquet/hyparquet/
	@cp $(HYPARQUET)/LICENSE web/parquet/hyparquet/LICENSE
	@rm -rf web/parquet/engine && mkdir -p web/parquet/engine
	@NODE_PATH=testdata/node_modules testdata/node_modules/.bin/esbuild app/browser/parquetengine.js --bundle --splitting \
	  --format=esm --minify --chunk-names='[name]' --entry-names=parquet-engine --log-level=warning $(ESBUILD_ALIASES) --outdir=web/parquet/engine
	@cp testdata/node_modules/hyparquet-compressors/LICENSE web/parquet/engine/hyparquet-compressors.LICENSE
	@cp testdata/node_modules/fzstd/LICENSE web/parquet/engine/fzstd.LICENSE
	@cp $(HYPARQUET)/LICENSE web/parquet/engine/hyparquet.LICENSE
	@cp testdata/node_modules/@uwdata/flechette/LICENSE web/parquet/engine/flechette.LICENSE

# Serve the app at http://127.0.0.1:$(PORT).
run: wasm
	$(GO) run . serve -addr 127.0.0.1:$(PORT)

# Write the static site to $(DIST); BASE is the URL path it is served under
# (for GitHub Pages: BASE=/<repository>).
static: wasm
	rm -rf $(DIST)
	$(GO) run . static -dir $(DIST) -base "$(BASE)" -brotli $(BROTLI)

# Raw, gzip -9 and brotli sizes of web/app.wasm, and its biggest modules and
# packages (from a build that keeps the function names). With REF (a commit,
# branch or tag), the same of REF's wasm, built by REF's own Makefile, side by
# side: make size REF=main.
size: web/app.wasm
	@$(if $(REF),$(MAKE) --no-print-directory ref-wasm REF=$(REF) &&) \
	  tmp=$$(mktemp -d) && GOOS=js GOARCH=wasm $(GO) build -trimpath $(WASM_GCFLAGS) -o $$tmp/app.wasm . && \
	  $(GO) run ./bench/payload size -brotli $(BROTLI) -syms $$tmp/app.wasm \
	    $(if $(REF),-base $(REF_DIR)/app.wasm -base-syms $(REF_DIR)/syms.wasm -base-dir $(REF_DIR)/src -base-name $(REF)) \
	    web/app.wasm; rc=$$?; rm -rf $$tmp; exit $$rc

# REF's tree (git archive, no worktree) in $(REF_DIR)/src, built by its own
# Makefile with the caller's GOFLAGS (not this Makefile's tags):
# ref-wasm writes $(REF_DIR)/app.wasm and syms.wasm (STRIP=), ref-static
# $(REF_DIR)/dist (BASE=/tensorview). Both are kept for the next run.
REF_SHA = $(shell git rev-parse --short=12 '$(REF)^{commit}')
REF_DIR = $(BENCH_DIR)/ref-$(REF_SHA)
REF_MAKE = GOFLAGS='$(USER_GOFLAGS)' $(MAKE) --no-print-directory -C $(REF_DIR)/src -o testdata/node_modules
ref-tree: testdata/node_modules
	@test -n '$(REF_SHA)' || { echo "REF=$(REF) is not a commit"; exit 1; }
	@test -d $(REF_DIR)/src || { mkdir -p $(REF_DIR)/src.tmp && git archive $(REF_SHA) | tar -x -C $(REF_DIR)/src.tmp && mv $(REF_DIR)/src.tmp $(REF_DIR)/src; }
	@ln -sfn $(abspath testdata/node_modules) $(REF_DIR)/src/testdata/node_modules
ref-wasm: ref-tree
	@test -f $(REF_DIR)/syms.wasm || { $(REF_MAKE) web/app.wasm STRIP= && cp $(REF_DIR)/src/web/app.wasm $(REF_DIR)/syms.wasm; }
	@test -f $(REF_DIR)/app.wasm || { $(REF_MAKE) web/app.wasm && cp $(REF_DIR)/src/web/app.wasm $(REF_DIR)/app.wasm; }
ref-static: ref-tree
	@test -f $(REF_DIR)/dist/web/app.wasm || $(REF_MAKE) static DIST=$(REF_DIR)/dist BASE=/tensorview BROTLI=6

# tensorview against apache-arrow (JS) in headless Chromium on generated
# files of BENCH_SIZES (default 100M,1G,6G) in $(BENCH_DIR): see bench/browser.
# Not part of make test.
bench-browser: BROTLI = 6
bench-browser: chromium testdata/node_modules bench/browser/node_modules static
	TENSORVIEW_DIST=$(abspath $(DIST)) BENCH_DIR=$(BENCH_DIR) $(GO) run ./bench/browser

# Boot time (navigation to data-state="empty", cold and warm) of REF
# (default main) against the working tree, side by side in headless Chromium:
# see bench/boot. BOOT_N rounds; BOOT_FLAGS adds flags (-trace DIR, -warm N,
# -encoding br). Not part of make test.
BOOT_N ?= 5
bench-boot: REF ?= main
bench-boot: BROTLI = 6
bench-boot: chromium testdata/node_modules
	@$(MAKE) --no-print-directory ref-static REF=$(REF)
	$(MAKE) --no-print-directory static DIST=$(BENCH_DIR)/boot-tree BASE=/tensorview BROTLI=$(BROTLI)
	$(GO) run ./bench/boot -a $(REF_DIR)/dist -b $(BENCH_DIR)/boot-tree -names '$(REF),tree' -n $(BOOT_N) \
	  -json $(BENCH_DIR)/boot.json $(BOOT_FLAGS)

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

# npm's @duckdb/duckdb-wasm, which only make bench-browser measures against
# (pinned in bench/browser/package-lock.json, kept out of make test's install).
bench/browser/node_modules: bench/browser/package.json bench/browser/package-lock.json
	cd bench/browser && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# Regenerate the files the non-Go writers write (committed; see testdata/README.md).
testdata-js: testdata/node_modules
	cd testdata && node gen_js.mjs && node gen_nongo.mjs && node gen_tensor_message.mjs && node gen_dialects.mjs && node gen_daft_lance.mjs && node gen_turtle.mjs && node gen_images.mjs && node gen_masks.mjs && node gen_compare.mjs && node gen_boxes.mjs && node gen_parquet.mjs && node gen_shards.mjs

# Everything: formatting, vet, unit tests, the browser tests (package e2e)
# against the static build served under a sub-path, and app/browser's wasm
# tests in Node.js (its Blob reader over a real Blob). The browser tests
# are independent (each its own server and Chromium) and run three at a
# time (-parallel 3): on two cores that halves their time, while more
# only queues behind the CPU. The timeout leaves room for a loaded machine.
test: export BROTLI = 6
test: lint chromium testdata/node_modules
	$(MAKE) static DIST=$(DIST) BASE=$(E2E_BASE)
	TENSORVIEW_FULL=1 TENSORVIEW_DIST=$(abspath $(DIST)) TENSORVIEW_BASE=$(E2E_BASE) $(GO) test -count=1 -timeout=30m -parallel 3 ./...
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$$($(GO) env GOROOT)/lib/wasm/go_js_wasm_exec" ./app/browser

# The fuzz campaign over the viewer's whole decode path (bytes -> open ->
# index -> cells -> previews -> inspector): app/summary's FuzzOpen for
# FUZZTIME. New crashers land in app/summary/testdata/fuzz/FuzzOpen, which
# make test replays.
# FUZZ=FuzzOpenParquet fuzzes the Parquet path's Go side instead (hostile
# footers and IPC answers through OpenParquet, values and tensors:
# app/decode's, crashers in app/decode/testdata/fuzz/FuzzOpenParquet).
FUZZTIME ?= 10m
FUZZ ?= FuzzOpen
FUZZPKG ?= $(if $(filter FuzzOpen,$(FUZZ)),./app/summary,./app/decode)
fuzz:
	$(GO) test $(FUZZPKG) -run '^$$' -fuzz '^$(FUZZ)$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10x

clean:
	rm -rf $(DIST) web/app.wasm web/samples web/vendor web/parquet .ldflags
