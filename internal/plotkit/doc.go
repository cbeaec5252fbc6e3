// Package plotkit is the small kit of gonum/plot pieces gctune's figures are drawn with: a
// canvas that renders to SVG, PNG or PDF (canvas.go), a shared palette and line dashes
// (palette.go), plots, legends and their aligned layout in a grid (layout.go), lines, scatters
// and the series helpers that prepare their points (downsampling, positive segments, scaling),
// plotters for reference lines and notes (plotters.go), axis tickers for linear, logarithmic,
// byte-sized and SI-suffixed axes (ticks.go), and the number formats their labels use
// (numbers.go).
//
// The report package draws every figure of the HTML report with it, and package lifetimes its
// histogram figure. Nothing here knows about the collector or the search: the colours that
// mean "default configuration" and "best configuration" stay in the report.
package plotkit
