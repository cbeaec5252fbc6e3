package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
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

// figRememberedSet draws the remembered set at each scheduled scavenge, default and best: on
// the left its membership, the old objects each scavenge scanned (solid) and those still in
// the set after it because they refer to a young object (dashed); on the right the slots
// scanned in them. Entries that stay are held by young referents parked in the survivor space;
// entries that leave come back at their next young store. (It replaces a figure of the
// entries alone and one of the membership, whose "scanned" line was the same series.)
func figRememberedSet(i int, c *Comparison) Figure {
	rc := newFigRunClock(c)
	var ms [2]rsMembership
	var slots [2]plotter.XYs
	var topEntries, topSlots float64
	for k, rs := range figRunStyles(c) {
		ms[k] = rsMembershipSeries(rs.run.Events, rc.x)
		for _, p := range ms[k].scanned {
			topEntries = max(topEntries, p.Y)
		}
		for _, e := range rs.run.Events {
			if e.Kind == heapsim.EventScavenge {
				slots[k] = append(slots[k], plotter.XY{X: rc.x(e.ClockBytes), Y: float64(e.RSSlots)})
				topSlots = max(topSlots, float64(e.RSSlots))
			}
		}
		ms[k].scanned = plotkit.Downsample(ms[k].scanned, figMaxSeriesPoints)
		ms[k].kept = plotkit.Downsample(ms[k].kept, figMaxSeriesPoints)
		slots[k] = plotkit.Downsample(slots[k], figMaxSeriesPoints)
	}
	caption := "The remembered set at each scheduled scavenge, " + figRunColours() + " (the default drawn wider, under " +
		"the best, so that both show where they coincide). Left, its membership: the old objects that point into new " +
		"space the scavenge scanned (solid) and those still in the set after it (dashed), because they still refer " +
		"to a young object, one parked in the survivor space; an entry that leaves comes back at its next young " +
		"store, and keeping all survivors (p ≥ 1) lets new survivors overflow to old space, so entries leave. " +
		"Right, the slots the scavenger scanned in them: a few big containers show as few entries but many slots."
	return figRunFigure(i, c, "remembered-set", "remembered set", caption, figWideHeight, func(dc draw.Canvas) error {
		leg := plotkit.NewLegend()
		markers := plotkit.Markers(ms[0].scavenges, ms[1].scavenges)
		styles := figRunStyles(c)
		line := func(p *plot.Plot, k int, pts plotter.XYs, dashes []vg.Length) []plot.Thumbnailer {
			rs := styles[k]
			l := plotkit.Line(pts, rs.color, 1.1*rs.wide, dashes)
			p.Add(l)
			th := []plot.Thumbnailer{l}
			if markers(ms[k].scavenges) {
				sc := plotkit.Scatter(pts, draw.CircleGlyph{}, rs.color, 1.6*math.Sqrt(rs.wide))
				p.Add(sc)
				th = append(th, sc)
			}
			return th
		}
		// Short panel titles (the figure's title names the workload): two long ones overlapped.
		entries := plotkit.NewPlot("Entries: old objects in the set", rc.label(), "old objects")
		bySlots := plotkit.NewPlot("Slots scanned in them", rc.label(), "slots")
		for k, rs := range styles { // the default first, wider, under the best
			m := ms[k]
			if m.scavenges == 0 {
				continue
			}
			leg.Add(fmt.Sprintf("%s: scanned (%d scavenges)", rs.name, m.scavenges), line(entries, k, m.scanned, nil)...)
			leg.Add(fmt.Sprintf("%s: kept after the scavenge (%d of them)", rs.name, m.keptScans), line(entries, k, m.kept, plotkit.Dashed)...)
			line(bySlots, k, slots[k], nil)
		}
		for _, pt := range []struct {
			p   *plot.Plot
			top float64
		}{{entries, topEntries}, {bySlots, topSlots}} {
			switch {
			case ms[0].scavenges+ms[1].scavenges == 0:
				pt.p.Add(plotkit.Note{Text: "no scavenges"})
			case pt.top == 0:
				pt.p.Add(plotkit.Note{Text: "remembered set always empty"})
			}
			pt.p.Y.Tick.Marker = plotkit.SITicks{}
			pt.p.Y.Min = 0
			pt.p.Y.Max = math.Max(math.Max(pt.p.Y.Max, 1.05*pt.top), 1)
			rc.apply(pt.p)
		}
		return plotkit.DrawGrid(dc, [][]*plot.Plot{{entries, bySlots}}, leg, nil)
	})
}
