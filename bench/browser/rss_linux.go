package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/chromedp/chromedp"
)

// rendererPeakRSS sums the peak resident set size (VmHWM) of the renderer
// processes of t's browser, found as its descendants in /proc: the page
// and its workers (a dedicated worker runs in its page's renderer), wasm
// memories and the file's bytes included. -1 when it cannot be read.
func (t *tab) rendererPeakRSS() float64 {
	c := chromedp.FromContext(t.ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return -1
	}
	root := c.Browser.Process().Pid
	parent := map[int]int{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
		s := string(data)
		end := strings.LastIndexByte(s, ')')
		if end < 0 {
			continue
		}
		fields := strings.Fields(s[end+1:])
		pid, err1 := strconv.Atoi(strings.Fields(s)[0])
		if len(fields) < 2 || err1 != nil {
			continue
		}
		if ppid, err := strconv.Atoi(fields[1]); err == nil {
			parent[pid] = ppid
		}
	}
	descends := func(pid int) bool {
		for range 64 {
			pp, ok := parent[pid]
			if !ok || pp <= 1 {
				return false
			}
			if pp == root {
				return true
			}
			pid = pp
		}
		return false
	}
	total, found := 0.0, false
	for pid := range parent {
		if !descends(pid) {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if err != nil || !strings.Contains(string(cmd), "--type=renderer") {
			continue
		}
		status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(status), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				f := strings.Fields(rest) // "123456 kB"
				if kb, err := strconv.ParseFloat(f[0], 64); err == nil && len(f) == 2 && f[1] == "kB" {
					total += kb * 1024
					found = true
				}
			}
		}
	}
	if !found {
		return -1
	}
	return total
}
