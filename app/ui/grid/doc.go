// Package grid is the table of rows: a windowed list of every row of the
// level shown (RowsTable), its cells and their previews (CellView,
// Preview, the thumbnails' decode queue and masks), the column headers
// with their sort and mask toggles, the keyboard (its keys, and where a
// key goes while the inspector opens or closes: RouteOf), the selection
// of cells to compare (SelectionBar) and the first screen's signal. It
// draws what the page passes in (the session model's order, sort, masks)
// and sends its asks to the page as actions (actions.go): ActionInspect,
// ActionNested, ActionCompareCells, ActionSortCol, ActionFirstRow,
// ActionThumbMask, ActionFirstScreen, ActionCancelRead.
//
// Entry points: RowsTable; RouteOf, KeyOf and KeyTarget for the page's key
// listener; ActionAt, ActionKey and ActionFocus, which the page sends as
// the inspector closes.
package grid
