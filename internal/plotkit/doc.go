// Package plotkit is the small kit of gonum/plot pieces gctune's figures are drawn with: a
// canvas that renders to SVG, PNG or PDF (canvas.go), a shared palette whose colours carry the
// word captions use for them, and line dashes (palette.go), the figures' sans-serif text and
// tick-label padding (text.go), plots, legends and their aligned layout in a grid (layout.go), lines, scatters
// and the series helpers that prepare their points (downsampling, positive segments, scaling),
// plotters for reference lines and notes (plotters.go), axis tickers for linear, logarithmic,
// byte-sized and SI-suffixed axes (ticks.go), and the number formats their labels use
// (numbers.go).
//
// The report package draws every figure of the HTML report with it, and package lifetimes its
// histogram figure. Nothing here knows about the collector or the search: which palette
// colours mean "default configuration" and "best configuration" is the report's choice.
package plotkit
