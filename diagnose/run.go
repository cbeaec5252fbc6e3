package diagnose

import (
	"fmt"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
)

// secondsLabel is the ValueLabel of a one-workload problem.
const secondsLabel = "run time (s)"

// ValueLabel names a problem's objective with its unit.
func ValueLabel(p *objective.Problem) string {
	if p.Seconds() {
		return secondsLabel
	}
	if ws := p.Workloads(); p.Runs() == 1 && ws[0].Run != "" {
		return fmt.Sprintf("mean slowdown of the %d readings (×)", len(ws))
	}
	if p.Settings().Aggregate == objective.AggregateMean {
		return "mean slowdown over the defaults (×)"
	}
	return "worst slowdown over the defaults (×)"
}

// Run is one simulated run of one workload with its event log.
type Run struct {
	// Label is "default" or "best".
	Label  string         `json:"label"`
	Params heapsim.Params `json:"params"`
	Stats  heapsim.Stats  `json:"stats"`
	// Events is heapsim's event log, in order.
	Events []heapsim.Event `json:"events"`
}

// simulate runs one workload with an event log when events is true.
func simulate(p *profile.Profile, params heapsim.Params, cost heapsim.Cost, events bool, acc *accumulator) (heapsim.Stats, []heapsim.Event, error) {
	var log []heapsim.Event
	opts := heapsim.Options{OnEvent: func(e *heapsim.Event) {
		acc.add(e)
		if events {
			log = append(log, *e)
		}
	}}
	st, err := heapsim.Run(p, params, cost, opts)
	return st, log, err
}
