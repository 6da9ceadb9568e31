// Command payload reports the size of the wasm and packs it. It is
// build-time code, run natively from the Makefile (make size, make wasm).
//
//	go run ./bench/payload pack WASM            # joins WASM's data segments in place
//	                                            # (internal/wasmpack: smaller compressed)
//	go run ./bench/payload size [-syms W] WASM  # raw, gzip and brotli sizes of WASM; with -syms, the
//	                                            # biggest packages of W (the same build without -s -w)
//	    [-base OLD -base-syms OLDW -base-dir DIR -base-name NAME]
//	                                            # and those of another build (OLD, OLDW, of the tree
//	                                            # in DIR) side by side, with the change
//
// The compressed sizes are those of the static site's precompressed copies
// (site.Gzip, site.Brotli: what `tensorview static` writes).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/tensorview/tensorview/app/site"
	"github.com/tensorview/tensorview/internal/wasmpack"
)

// brotliQuality is the quality of the brotli size reported.
var brotliQuality = 11

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "pack":
		if len(os.Args) != 3 {
			usage()
		}
		err = pack(os.Args[2])
	case "size":
		fl := flag.NewFlagSet("size", flag.ExitOnError)
		syms := fl.String("syms", "", "the same wasm built without -s -w, to sum code size per package")
		top := fl.Int("top", 20, "packages to list")
		pkg := fl.String("pkg", ".", "the directory of the main package of the wasm, whose dependencies `go list` names")
		fl.IntVar(&brotliQuality, "brotli", brotliQuality, "brotli quality, 0 to 11")
		var base build
		fl.StringVar(&base.wasm, "base", "", "another build of the wasm to compare with (e.g. of main)")
		fl.StringVar(&base.syms, "base-syms", "", "that build without -s -w")
		fl.StringVar(&base.dir, "base-dir", "", "the source tree of that build, for `go list` (its packages, listed without build tags)")
		fl.StringVar(&base.name, "base-name", "base", "that build's name in the tables")
		_ = fl.Parse(os.Args[2:])
		if fl.NArg() != 1 {
			usage()
		}
		cur := build{name: "this", wasm: fl.Arg(0), syms: *syms, dir: *pkg}
		if base.wasm == "" {
			err = size(cur, *top)
		} else {
			err = compare(base, cur, *top)
		}
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "payload:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: payload pack FILE.wasm")
	fmt.Fprintln(os.Stderr, "       payload size [-brotli Q] [-syms UNSTRIPPED.wasm [-pkg .] [-top N]] [-base OLD.wasm [-base-syms OLD-UNSTRIPPED.wasm -base-dir DIR] [-base-name NAME]] FILE.wasm")
	os.Exit(2)
}

// pack joins the data segments of the wasm file at path (wasmpack.Pack).
func pack(path string) error {
	w, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	p, err := wasmpack.Pack(w, wasmpack.Gap)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, p, 0o644)
}

// build is a wasm file, the same build with function names (syms, may be
// empty), and the main package it was built from (dir, for go list).
type build struct{ name, wasm, syms, dir string }

// sizes is a wasm file's raw, gzip -9 and brotli sizes.
type sizes struct{ raw, gzip, brotli int }

func measure(path string) (sizes, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return sizes{}, err
	}
	var gz, br []byte
	var wg sync.WaitGroup
	wg.Go(func() { gz = site.Gzip(data) })
	wg.Go(func() { br = site.Brotli(data, brotliQuality) })
	wg.Wait()
	return sizes{len(data), len(gz), len(br)}, nil
}

// size prints the raw, gzip and brotli sizes of a wasm file and, with syms,
// the code size of the biggest packages.
func size(b build, top int) error {
	s, err := measure(b.wasm)
	if err != nil {
		return err
	}
	fmt.Printf("%s\n", b.wasm)
	tw := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "raw\t%d\t%s\t\t\n", s.raw, mb(s.raw))
	fmt.Fprintf(tw, "gzip -9\t%d\t%s\t%.1f%%\t\n", s.gzip, mb(s.gzip), 100*float64(s.gzip)/float64(s.raw))
	fmt.Fprintf(tw, "brotli %d\t%d\t%s\t%.1f%%\t\n", brotliQuality, s.brotli, mb(s.brotli), 100*float64(s.brotli)/float64(s.raw))
	tw.Flush()
	if b.syms == "" {
		return nil
	}
	w, err := os.ReadFile(b.syms)
	if err != nil {
		return err
	}
	return packageSizes(os.Stdout, w, wasmPackages(b.dir, false), top)
}

// compare prints the sizes of two builds side by side and, when both have
// syms, their code bytes per module and the packages that changed most.
func compare(base, cur build, top int) error {
	var sb, sc sizes
	var eb, ec error
	var wg sync.WaitGroup
	wg.Go(func() { sb, eb = measure(base.wasm) })
	wg.Go(func() { sc, ec = measure(cur.wasm) })
	wg.Wait()
	if err := errors.Join(eb, ec); err != nil {
		return err
	}
	fmt.Printf("%s: %s\n%s: %s\n\n", base.name, base.wasm, cur.name, cur.wasm)
	tw := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\t%s\t\t%s\t\tchange\t\n", base.name, cur.name)
	row := func(name string, a, b int) {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%s\t%s\t\n", name, a, mb(a), b, mb(b), pct(a, b))
	}
	row("raw", sb.raw, sc.raw)
	row("gzip -9", sb.gzip, sc.gzip)
	row(fmt.Sprintf("brotli %d", brotliQuality), sb.brotli, sc.brotli)
	tw.Flush()
	if base.syms == "" || cur.syms == "" {
		return nil
	}
	wb, err := os.ReadFile(base.syms)
	if err != nil {
		return err
	}
	wc, err := os.ReadFile(cur.syms)
	if err != nil {
		return err
	}
	// The base tree's packages are listed without build tags: a superset of
	// any tagged build's (arrow_json_stdlib only drops goccy/go-json), so
	// every function finds its package.
	cb, err := codeSizes(wb, wasmPackages(base.dir, true))
	if err != nil {
		return fmt.Errorf("%s: %w", base.syms, err)
	}
	cc, err := codeSizes(wc, wasmPackages(cur.dir, false))
	if err != nil {
		return fmt.Errorf("%s: %w", cur.syms, err)
	}
	side := func(title string, a, b map[string]int, n int) {
		fmt.Printf("\n%s\n", title)
		keys := map[string]bool{}
		for k := range a {
			keys[k] = true
		}
		for k := range b {
			keys[k] = true
		}
		var ks []string
		for k := range keys {
			ks = append(ks, k)
		}
		// The biggest changes first, then the biggest.
		sort.Slice(ks, func(i, j int) bool {
			di, dj := abs(b[ks[i]]-a[ks[i]]), abs(b[ks[j]]-a[ks[j]])
			if di != dj {
				return di > dj
			}
			return max(a[ks[i]], b[ks[i]]) > max(a[ks[j]], b[ks[j]]) || max(a[ks[i]], b[ks[i]]) == max(a[ks[j]], b[ks[j]]) && ks[i] < ks[j]
		})
		tw := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "%s\t%s\tchange\t\t\n", base.name, cur.name)
		for i, k := range ks {
			if i == n {
				break
			}
			fmt.Fprintf(tw, "%d\t%d\t%+d\t%s\t\n", a[k], b[k], b[k]-a[k], k)
		}
		tw.Flush()
	}
	side("sections (bytes)", cb.sections, cc.sections, 4)
	side("code bytes per module (function bodies; std is the standard library), biggest changes first", cb.perMod, cc.perMod, top)
	side("code bytes per package, biggest changes first", cb.perPkg, cc.perPkg, top)
	return nil
}

func pct(a, b int) string {
	if a == 0 {
		return ""
	}
	return fmt.Sprintf("%+.1f%%", 100*float64(b-a)/float64(a))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func mb(n int) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }

// code is a wasm module's section sizes and code bytes (function bodies)
// per Go package and per module.
type code struct{ sections, perPkg, perMod map[string]int }

// codeSizes parses a wasm module (the code section and the "name" custom
// section the Go linker writes without -s) and sums the code bytes per Go
// package of pkgs and per module.
func codeSizes(w []byte, pkgs []goPackage) (code, error) {
	if len(w) < 8 || string(w[:4]) != "\x00asm" {
		return code{}, fmt.Errorf("not a wasm module")
	}
	r := &wasmpack.Reader{B: w, Off: 8}
	var bodies []int          // code size of each defined function
	names := map[int]string{} // function index (imports first) to name
	imports := 0
	sections := map[string]int{}
	for r.Off < len(r.B) {
		id := r.Byte()
		n := int(r.Uleb())
		end := r.Off + n
		if r.Err != nil || end > len(r.B) {
			return code{}, fmt.Errorf("truncated wasm module")
		}
		sec := &wasmpack.Reader{B: r.B[:end], Off: r.Off}
		switch id {
		case 0:
			name := sec.Name()
			sections["custom "+name] += n
			if name == "name" {
				for sec.Off < end && sec.Err == nil {
					sub := sec.Byte()
					size := int(sec.Uleb())
					subEnd := sec.Off + size
					if sub == 1 {
						count := int(sec.Uleb())
						for range count {
							idx := int(sec.Uleb())
							names[idx] = sec.Name()
						}
					}
					sec.Off = subEnd
				}
			}
		case 2:
			sections["import"] += n
			count := int(sec.Uleb())
			for range count {
				sec.Name()
				sec.Name()
				kind := sec.Byte()
				switch kind {
				case 0: // function
					sec.Uleb()
					imports++
				case 1: // table
					sec.Byte()
					limits(sec)
				case 2: // memory
					limits(sec)
				case 3: // global
					sec.Byte()
					sec.Byte()
				}
			}
		case 10:
			sections["code"] += n
			count := int(sec.Uleb())
			for range count {
				size := int(sec.Uleb())
				bodies = append(bodies, size)
				sec.Off += size
			}
		case 11:
			sections["data"] += n
		default:
			sections[fmt.Sprintf("section %d", id)] += n
		}
		if sec.Err != nil {
			return code{}, sec.Err
		}
		r.Off = end
	}
	if len(names) == 0 {
		return code{}, fmt.Errorf("no name section: build without -ldflags=\"-s -w\"")
	}
	perPkg, perMod := map[string]int{}, map[string]int{}
	modOf := map[string]string{}
	for _, p := range pkgs {
		modOf[p.path] = p.module
	}
	for i, size := range bodies {
		p := pkgOf(names[imports+i], pkgs)
		perPkg[p] += size
		if m, ok := modOf[p]; ok {
			perMod[m] += size
		} else {
			perMod["(other)"] += size
		}
	}
	return code{sections, perPkg, perMod}, nil
}

// packageSizes prints the sizes of the sections of a wasm module with
// function names and the code bytes of its biggest modules and packages.
func packageSizes(out io.Writer, w []byte, pkgs []goPackage, top int) error {
	c, err := codeSizes(w, pkgs)
	if err != nil {
		return err
	}
	sections, perPkg, perMod := c.sections, c.perPkg, c.perMod
	type kv struct {
		k string
		v int
	}
	sorted := func(m map[string]int) []kv {
		var s []kv
		for k, v := range m {
			s = append(s, kv{k, v})
		}
		sort.Slice(s, func(i, j int) bool { return s[i].v > s[j].v || s[i].v == s[j].v && s[i].k < s[j].k })
		return s
	}
	fmt.Fprintf(out, "\nsections of the unstripped build (bytes)\n")
	tw := tabwriter.NewWriter(out, 0, 8, 2, ' ', tabwriter.AlignRight)
	for _, e := range sorted(sections) {
		fmt.Fprintf(tw, "%s\t%d\t%s\t\n", e.k, e.v, mb(e.v))
	}
	tw.Flush()
	code := sections["code"]
	if len(pkgs) > 0 {
		fmt.Fprintf(out, "\ncode bytes per module (function bodies; std is the standard library)\n")
		tw = tabwriter.NewWriter(out, 0, 8, 2, ' ', tabwriter.AlignRight)
		for i, e := range sorted(perMod) {
			if i < top {
				fmt.Fprintf(tw, "%d\t%.1f%%\t%s\t\n", e.v, 100*float64(e.v)/float64(code), e.k)
			}
		}
		tw.Flush()
	}
	fmt.Fprintf(out, "\ncode bytes per package (function bodies; the data section is not attributed)\n")
	tw = tabwriter.NewWriter(out, 0, 8, 2, ' ', tabwriter.AlignRight)
	rest := 0
	for i, e := range sorted(perPkg) {
		if i < top {
			fmt.Fprintf(tw, "%d\t%.1f%%\t%s\t\n", e.v, 100*float64(e.v)/float64(code), e.k)
		} else {
			rest += e.v
		}
	}
	if rest > 0 {
		fmt.Fprintf(tw, "%d\t%.1f%%\t(%d other packages)\t\n", rest, 100*float64(rest)/float64(code), len(perPkg)-top)
	}
	return tw.Flush()
}

// goPackage is a package path and its spelling in the wasm name section.
type goPackage struct{ path, module, wasm string }

// wasmPackages lists the packages linked into the wasm build of the main
// package pkg (a directory or import path; go list -deps), longest first;
// nil if go list fails. noTags lists them without build tags (overriding
// GOFLAGS' -tags).
func wasmPackages(pkg string, noTags bool) []goPackage {
	args := []string{"list", "-deps", "-f", "{{.ImportPath}} {{with .Module}}{{.Path}}{{else}}std{{end}}"}
	if noTags {
		args = append(args, "-tags=")
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = pkg
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "payload: go list -deps %s: %v (package names are guessed)\n", pkg, err)
		return nil
	}
	var pkgs []goPackage
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p, mod, ok := strings.Cut(line, " "); ok {
			pkgs = append(pkgs, goPackage{p, mod, wasmName.ReplaceAllString(p, "_") + "."})
		}
	}
	sort.Slice(pkgs, func(i, j int) bool { return len(pkgs[i].wasm) > len(pkgs[j].wasm) })
	return pkgs
}

// wasmName is how the Go linker spells a name in the wasm name section.
var wasmName = regexp.MustCompile(`[^\w.]`)

// pkgOf returns the package of a function named in the wasm name section,
// where the linker replaced every character but letters, digits, _ and . by
// _ ("github.com_apache_arrow-go_v18_arrow_array.__Int64_.Value"): the
// longest of pkgs that prefixes the name, or else the name up to its first
// dot.
func pkgOf(sym string, pkgs []goPackage) string {
	if sym == "" {
		return "(unnamed)"
	}
	for _, p := range []string{"type:.eq.", "type:.hash.", "type_.eq.", "type_.hash."} {
		sym = strings.TrimPrefix(sym, p)
	}
	if strings.HasPrefix(sym, "go_") || strings.HasPrefix(sym, "go:") || strings.HasPrefix(sym, "type_") || strings.HasPrefix(sym, "type:") {
		return "(runtime support)"
	}
	for _, p := range pkgs {
		if strings.HasPrefix(sym, p.wasm) {
			return p.path
		}
	}
	if dot := strings.Index(sym, "."); dot >= 0 {
		return sym[:dot]
	}
	return sym
}

// limits reads a table's or memory's limits (a flag, the minimum, the
// maximum when the flag says so).
func limits(r *wasmpack.Reader) {
	if r.Byte()&1 != 0 {
		r.Uleb()
	}
	r.Uleb()
}
