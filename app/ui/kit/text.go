package kit

import (
	"strconv"
	"strings"
)

// Plural is "1 box", "3 boxes".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// NamesSuffix is " (H,W,C)" for dim names H, W, C; "" for none.
func NamesSuffix(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " (" + strings.Join(names, ",") + ")"
}
