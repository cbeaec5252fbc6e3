package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/internal/plotkit"
)

// rsMembership is a run's remembered-set membership at each scheduled scavenge: the entries
// scanned (members when the scavenge began: those kept by the last one and those the write
// barrier added since) and the entries kept (those still referring to a young object after
// it, docs/spur-model.md §3.1, §3.6). X is the allocation clock in the figure's unit.
type rsMembership struct {
	scanned, kept plotter.XYs
	// scavenges counts the scheduled scavenges; keptScans those after which an entry stayed.
	scavenges, keptScans int
}

// rsMembershipSeries extracts a run's membership series from its event log; x maps the clock
// to the figure's axis.
func rsMembershipSeries(events []heapsim.Event, x func(uint64) float64) rsMembership {
	var m rsMembership
	for _, e := range events {
		if e.Kind != heapsim.EventScavenge {
			continue
		}
		m.scavenges++
		m.scanned = append(m.scanned, plotter.XY{X: x(e.ClockBytes), Y: e.RSEntries})
		m.kept = append(m.kept, plotter.XY{X: x(e.ClockBytes), Y: e.RSRemainingEntries})
		if e.RSRemainingEntries > 0 {
			m.keptScans++
		}
	}
	return m
}

// figRSMembership draws the remembered set's membership over the run, default and best: how
// many old objects each scavenge scanned and how many stayed in the set after it. Entries
// that stay are held by young referents parked in the survivor space; entries that leave come
// back at their next young store.
func figRSMembership(i int, c *Comparison) Figure {
	rc := newFigRunClock(c)
	var ms [2]rsMembership
	var top float64
	for k, rs := range figRunStyles(c) {
		ms[k] = rsMembershipSeries(rs.run.Events, rc.x)
		for _, p := range ms[k].scanned {
			top = max(top, p.Y)
		}
		ms[k].scanned = plotkit.Downsample(ms[k].scanned, figMaxSeriesPoints)
		ms[k].kept = plotkit.Downsample(ms[k].kept, figMaxSeriesPoints)
	}
	caption := "Remembered-set membership at each scheduled scavenge, " + figRunColours() + ": " +
		"the old objects scanned (solid) and those still in the set afterwards (dashed), because they " +
		"still refer to a young object, one parked in the survivor space. An entry that leaves comes " +
		"back at its next young store; keeping all survivors (p ≥ 1) lets new survivors overflow to old " +
		"space, so entries leave."
	return Figure{
		Name: fmt.Sprintf("run-%d-rs-membership", i+1), Section: SectionRun, Workload: i,
		Title:   figRunTitle(c, "remembered-set membership"),
		Caption: caption,
		render: figCanvas(figWideWidth, figWideHeight, func(dc draw.Canvas) error {
			leg := plotkit.NewLegend()
			p := plotkit.NewPlot(figRunTitle(c, "remembered-set membership"), rc.label(), "old objects in the set")
			for k, rs := range figRunStyles(c) {
				m := ms[k]
				if len(m.scanned) == 0 {
					continue
				}
				scanned := plotkit.Line(m.scanned, rs.color, 1.1*rs.wide, nil)
				kept := plotkit.Line(m.kept, rs.color, 1.1*rs.wide, plotkit.Dashed)
				p.Add(scanned, kept)
				leg.Add(fmt.Sprintf("%s: scanned (%d scavenges)", rs.name, m.scavenges), scanned)
				leg.Add(fmt.Sprintf("%s: kept after the scavenge (%d of them)", rs.name, m.keptScans), kept)
			}
			switch {
			case ms[0].scavenges+ms[1].scavenges == 0:
				p.Add(plotkit.Note{Text: "no scavenges"})
			case top == 0:
				p.Add(plotkit.Note{Text: "remembered set always empty"})
			}
			p.Y.Tick.Marker = plotkit.SITicks{}
			p.Y.Min = 0
			p.Y.Max = math.Max(math.Max(p.Y.Max, 1.05*top), 1)
			rc.apply(p)
			return plotkit.DrawGrid(dc, [][]*plot.Plot{{p}}, leg, nil)
		}),
	}
}
