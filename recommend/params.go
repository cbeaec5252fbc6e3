package recommend

import (
	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/tunable"
)

// Label returns the name people read for a search dimension ("growth headroom"), or the name
// itself when it is not one.
func Label(param string) string {
	if t, ok := tunable.Named(param); ok {
		return t.Label
	}
	return param
}

// Params returns the simulator parameters of point p with the dimensions named in atDefault
// put back to the VM defaults of base (base's own fields), and the others as p.Params(base).
func Params(p tunable.Point, atDefault []string, base heapsim.Params) heapsim.Params {
	out := p.Params(base)
	for _, name := range atDefault {
		if t, ok := tunable.Named(name); ok {
			t.Reset(&out, base)
		}
	}
	return out
}
