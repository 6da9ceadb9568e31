// Command payload reports the size of the wasm. It is build-time code, run
// natively from the Makefile (make size).
//
//	go run ./bench/payload size [-syms W] WASM  # raw, gzip and brotli sizes of WASM; with -syms, the
//	                                            # biggest packages of W (the same build without -s -w)
//
// The compressed sizes are those of the static site's precompressed copies
// (site.Gzip, site.Brotli: what `tensorview static` writes).
package main

import (
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
)

// brotliQuality is the quality of the brotli size reported.
var brotliQuality = 11

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "size":
		fl := flag.NewFlagSet("size", flag.ExitOnError)
		syms := fl.String("syms", "", "the same wasm built without -s -w, to sum code size per package")
		top := fl.Int("top", 20, "packages to list")
		pkg := fl.String("pkg", ".", "the main package of the wasm, whose dependencies `go list` names")
		fl.IntVar(&brotliQuality, "brotli", brotliQuality, "brotli quality, 0 to 11")
		_ = fl.Parse(os.Args[2:])
		if fl.NArg() != 1 {
			usage()
		}
		err = size(fl.Arg(0), *syms, *pkg, *top)
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "payload:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: payload size [-brotli Q] [-syms UNSTRIPPED.wasm [-pkg .] [-top N]] FILE.wasm")
	os.Exit(2)
}

// size prints the raw, gzip and brotli sizes of a wasm file and, with syms,
// the code size of the biggest packages.
func size(path, syms, pkg string, top int) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var gz, br []byte
	var wg sync.WaitGroup
	wg.Go(func() { gz = site.Gzip(data) })
	wg.Go(func() { br = site.Brotli(data, brotliQuality) })
	wg.Wait()
	fmt.Printf("%s\n", path)
	tw := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "raw\t%d\t%s\t\t\n", len(data), mb(len(data)))
	fmt.Fprintf(tw, "gzip -9\t%d\t%s\t%.1f%%\t\n", len(gz), mb(len(gz)), 100*float64(len(gz))/float64(len(data)))
	fmt.Fprintf(tw, "brotli %d\t%d\t%s\t%.1f%%\t\n", brotliQuality, len(br), mb(len(br)), 100*float64(len(br))/float64(len(data)))
	tw.Flush()
	if syms == "" {
		return nil
	}
	w, err := os.ReadFile(syms)
	if err != nil {
		return err
	}
	return packageSizes(os.Stdout, w, wasmPackages(pkg), top)
}

func mb(n int) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }

// packageSizes parses a wasm module (the code section and the "name" custom
// section the Go linker writes without -s) and prints the code bytes per Go
// package, with the sizes of the sections.
func packageSizes(out io.Writer, w []byte, pkgs []goPackage, top int) error {
	if len(w) < 8 || string(w[:4]) != "\x00asm" {
		return fmt.Errorf("not a wasm module")
	}
	r := &reader{b: w, off: 8}
	var bodies []int          // code size of each defined function
	names := map[int]string{} // function index (imports first) to name
	imports := 0
	sections := map[string]int{}
	for r.off < len(r.b) {
		id := r.byte()
		n := int(r.uleb())
		end := r.off + n
		if r.err != nil || end > len(r.b) {
			return fmt.Errorf("truncated wasm module")
		}
		sec := &reader{b: r.b[:end], off: r.off}
		switch id {
		case 0:
			name := sec.name()
			sections["custom "+name] += n
			if name == "name" {
				for sec.off < end && sec.err == nil {
					sub := sec.byte()
					size := int(sec.uleb())
					subEnd := sec.off + size
					if sub == 1 {
						count := int(sec.uleb())
						for range count {
							idx := int(sec.uleb())
							names[idx] = sec.name()
						}
					}
					sec.off = subEnd
				}
			}
		case 2:
			sections["import"] += n
			count := int(sec.uleb())
			for range count {
				sec.name()
				sec.name()
				kind := sec.byte()
				switch kind {
				case 0: // function
					sec.uleb()
					imports++
				case 1: // table
					sec.byte()
					sec.limits()
				case 2: // memory
					sec.limits()
				case 3: // global
					sec.byte()
					sec.byte()
				}
			}
		case 10:
			sections["code"] += n
			count := int(sec.uleb())
			for range count {
				size := int(sec.uleb())
				bodies = append(bodies, size)
				sec.off += size
			}
		case 11:
			sections["data"] += n
		default:
			sections[fmt.Sprintf("section %d", id)] += n
		}
		if sec.err != nil {
			return sec.err
		}
		r.off = end
	}
	if len(names) == 0 {
		return fmt.Errorf("no name section: build without -ldflags=\"-s -w\"")
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

// wasmPackages lists the packages linked into the wasm build of pkg (go list
// -deps), longest first; nil if go list fails.
func wasmPackages(pkg string) []goPackage {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{with .Module}}{{.Path}}{{else}}std{{end}}", pkg)
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

// reader decodes the parts of the wasm binary format packageSizes needs.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) byte() byte {
	if r.off >= len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	c := r.b[r.off]
	r.off++
	return c
}

func (r *reader) uleb() uint64 {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		c := r.byte()
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			break
		}
	}
	return v
}

func (r *reader) name() string {
	n := int(r.uleb())
	if r.off+n > len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return ""
	}
	s := string(r.b[r.off : r.off+n])
	r.off += n
	return s
}

func (r *reader) limits() {
	if r.byte()&1 != 0 {
		r.uleb()
	}
	r.uleb()
}
