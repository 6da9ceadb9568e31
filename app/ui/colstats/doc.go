// Package colstats is the column statistics panel: a column's summary
// (count, nulls, range, quantiles, its most common values, a histogram),
// the scan's progress with Cancel, and a quick filter that the page
// merges into the query bar's filter. It draws the session model's
// session.Stats and sends ActionColStats, ActionQuickFilter,
// ActionColStatsCancel and ActionColStatsClose. Inline, the same panel
// draws the inspected column's element statistics (session.Model.Elements)
// in the inspector's side and sends ActionElementStats and
// ActionElementStatsCancel.
//
// Entry points: ColumnStatsPanel, StatsAsk.
package colstats
