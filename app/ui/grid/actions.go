package grid

import (
	"github.com/tensorview/tensorview/app/ui/kit"
	"github.com/tensorview/tensorview/app/viewstate"
)

// Actions the grid sends to the page, which carries them to the session
// model. The actions the rows table sends to itself are with it (rows.go).
const (
	ActionInspect      kit.Action[Target]                  = "tv/inspect"       // a tensor cell to inspect (CellView)
	ActionCompareCells kit.Action[viewstate.OpenInspector] = "tv/compare-cells" // two cells selected to compare (SelectionBar)
	ActionNested       kit.Action[Target]                  = "tv/nested"        // a nested record batch cell to open (CellView)
	ActionFirstRow     kit.Action[int64]                   = "tv/first-row"     // the rows table's first row in view, for the address
)

// Target names the tensor to inspect.
type Target struct {
	Col int
	Row int64
}

// ActionSortCol is a column header's sort.
const ActionSortCol kit.Action[SortAsk] = "tv/sort-col"

// SortAsk is a click on a column header's sort (Fn "") or a statistic
// chosen in a tensor column's header (Fn: "mean", …; Clear: none).
type SortAsk struct {
	Col   int
	Fn    string
	Clear bool
}
