// Package colstats is the column statistics panel: a column's summary
// (count, nulls, range, quantiles, its most common values, a histogram),
// the scan's progress with Cancel, and a quick filter that the page
// merges into the query bar's filter. It draws the session model's
// session.Stats and sends ActionColStats, ActionQuickFilter,
// ActionColStatsCancel and ActionColStatsClose.
//
// Entry points: ColumnStatsPanel, StatsAsk.
package colstats
