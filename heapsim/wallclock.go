package heapsim

import (
	"fmt"

	"github.com/gctune/gctune/profile"
)

// WallClock maps the profile's clock (bytes allocated) to the seconds of the run simulated
// with params and cost: the mutator's time, taken as linear in the clock (the cost model
// charges allocation, docs/calibration.md), plus every GC pause before it (scavenges, full
// GCs, growth and shrink, as Stats times them). It returns points (clock, seconds) in order,
// from (0, 0) to (EndBytes, TotalSeconds): a pause at clock c gives two points, before and
// after it, so a lifetime that spans it includes it. Profilers that time with a clock, such as
// [IWST23-L]'s (microseconds), measure lifetimes this way (lifetimes.WallClock reads them).
func WallClock(p *profile.Profile, params Params, cost Cost) (clocks []uint64, seconds []float64, err error) {
	type pause struct {
		clock uint64
		secs  float64
	}
	var pauses []pause
	st, err := Run(p, params, cost, Options{OnEvent: func(e *Event) {
		pauses = append(pauses, pause{e.ClockBytes, e.Seconds})
	}})
	if err != nil {
		return nil, nil, fmt.Errorf("heapsim: wall clock: %w", err)
	}
	end := p.Meta.EndBytes
	mutator := func(c uint64) float64 {
		if end == 0 {
			return 0
		}
		return st.MutatorSeconds * float64(min(c, end)) / float64(end)
	}
	clocks = make([]uint64, 0, 2*len(pauses)+2)
	seconds = make([]float64, 0, 2*len(pauses)+2)
	clocks, seconds = append(clocks, 0), append(seconds, 0)
	var paused float64
	for _, q := range pauses {
		c := min(q.clock, end)
		clocks, seconds = append(clocks, c), append(seconds, mutator(c)+paused)
		paused += q.secs
		clocks, seconds = append(clocks, c), append(seconds, mutator(c)+paused)
	}
	clocks, seconds = append(clocks, end), append(seconds, mutator(end)+paused)
	return clocks, seconds, nil
}
