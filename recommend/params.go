package recommend

import (
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/search"
)

// tunable is one search dimension as the recommendation handles it: its value in a point, and
// how to put it back to the VM default in simulator parameters.
type tunable struct {
	name  string
	label string
	get   func(search.Point) float64
	set   func(*search.Point, float64)
	// reset puts the VM default itself back (base's field, not its rounded point: the ratio
	// 0.333333, Pharo's own survivors formula), as explain's reverts do.
	reset func(p *heapsim.Params, base heapsim.Params)
}

// tunables lists the five dimensions in search.ParamNames order.
var tunables = [...]tunable{
	{search.ParamNewSpace, "new space (eden) size",
		func(p search.Point) float64 { return p.NewSpaceBytes }, func(p *search.Point, v float64) { p.NewSpaceBytes = v },
		func(p *heapsim.Params, b heapsim.Params) { p.NewSpaceBytes = b.NewSpaceBytes }},
	{search.ParamHeadroom, "growth headroom",
		func(p search.Point) float64 { return p.HeadroomBytes }, func(p *search.Point, v float64) { p.HeadroomBytes = v },
		func(p *heapsim.Params, b heapsim.Params) { p.GrowthHeadroomBytes = b.GrowthHeadroomBytes }},
	{search.ParamShrink, "shrink threshold",
		func(p search.Point) float64 { return p.ShrinkBytes }, func(p *search.Point, v float64) { p.ShrinkBytes = v },
		func(p *heapsim.Params, b heapsim.Params) { p.ShrinkThresholdBytes = b.ShrinkThresholdBytes }},
	{search.ParamRatio, "full GC ratio",
		func(p search.Point) float64 { return p.Ratio }, func(p *search.Point, v float64) { p.Ratio = v },
		func(p *heapsim.Params, b heapsim.Params) { p.FullGCRatio = b.FullGCRatio }},
	{search.ParamProportion, "survivors to keep",
		func(p search.Point) float64 { return p.Proportion }, func(p *search.Point, v float64) { p.Proportion = v },
		func(p *heapsim.Params, b heapsim.Params) { p.Survivors = b.Survivors }},
}

// Label returns the name people read for a search dimension ("growth headroom"), or the name
// itself when it is not one.
func Label(param string) string {
	if t, ok := tunableByName(param); ok {
		return t.label
	}
	return param
}

func tunableByName(name string) (tunable, bool) {
	for _, t := range tunables {
		if t.name == name {
			return t, true
		}
	}
	return tunable{}, false
}

// Params returns the simulator parameters of point p with the dimensions named in atDefault
// put back to the VM defaults of base (base's own fields), and the others as p.Params(base).
func Params(p search.Point, atDefault []string, base heapsim.Params) heapsim.Params {
	out := p.Params(base)
	for _, name := range atDefault {
		if t, ok := tunableByName(name); ok {
			t.reset(&out, base)
		}
	}
	return out
}
