package report

import (
	"fmt"
	"io"

	"github.com/gctune/gctune/lifetimes"
)

// ---- Workload figures ----

func figWorkload(i int, name string, h *lifetimes.Histogram, suffix, scale string) (Figure, error) {
	if h.Bins() == 0 || len(h.Edges) != h.Bins()+1 || len(h.ObjectShare) != h.Bins() || len(h.ByteShare) != h.Bins() {
		return Figure{}, fmt.Errorf("report: figures: workload %q: malformed %s histogram", name, scale)
	}
	f := Figure{
		Name:     fmt.Sprintf("workload-%d-lifetimes%s", i+1, suffix),
		Section:  SectionWorkload,
		Workload: i,
		Title:    fmt.Sprintf("%s: object lifetimes (%s scale)", name, scale),
		render: func(w io.Writer, format string) error {
			return WriteHistogramPlot(w, format, h, name)
		},
	}
	if h.Scale == lifetimes.LogScale {
		f.Caption = "Share of objects (left) and of allocated bytes (right) per lifetime bin, lifetimes " +
			"as a share of the run on a log axis, which resolves the short-lived objects; the first " +
			"bar holds everything shorter than the first edge."
	} else {
		f.Caption = "Share of objects (left) and of allocated bytes (right) per lifetime bin, lifetimes " +
			"as a share of the run, as in the density charts of [IWST23-L] and [ISMM24] (see References): a tall first bar means most " +
			"objects die young, mass on the right means long-lived data."
	}
	return f, nil
}
