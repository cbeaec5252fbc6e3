// Package lifetimes analyses an application's object-lifetime profile (profile.Profile): the
// long-lived fraction by count and by bytes (Summarize, with AnalysisOptions), per-class
// tables, the largest objects, the containers, lifetime histograms on a linear or logarithmic
// scale (LifetimeHistogram) and the live bytes over the run (LiveCurve). It imports only
// profile; the histogram's figure is drawn by package report (WriteHistogramPlot). It knows
// nothing of GC parameters or search.
package lifetimes
