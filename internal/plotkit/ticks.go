package plotkit

import (
	"math"
	"strconv"

	"github.com/gctune/gctune/internal/numfmt"
	"gonum.org/v1/plot"
)

// LogTicks labels a log axis: decades, plus 2× and 5× on ranges under about two decades, every
// other decade on ranges over seven; unlabelled minor ticks at the other integer multiples.
type LogTicks struct{ Format func(float64) string }

// Ticks implements plot.Ticker.
func (t LogTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return nil
	}
	decades := math.Log10(hi / lo)
	labelled := map[int]bool{1: true}
	if decades < 2.2 {
		labelled[2], labelled[5] = true, true
	}
	if decades < 0.8 {
		labelled = map[int]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true}
	}
	every := 1
	if decades > 7 {
		every = 2
	}
	// An axis needs at least three labels to be read: widen the labelled set until it has
	// them (a run-time axis from 550 to 4,600 s would otherwise show only 1000 and 2000).
	for _, more := range []map[int]bool{{1: true, 2: true, 5: true}, {1: true, 2: true, 3: true, 5: true}, {1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true}} {
		if t.countLabels(lo, hi, labelled, every) >= 3 {
			break
		}
		for m := range more {
			labelled[m] = true
		}
	}
	var ticks []plot.Tick
	for k := int(math.Floor(math.Log10(lo))); k <= int(math.Ceil(math.Log10(hi))); k++ {
		base := math.Pow(10, float64(k))
		for m := 1; m <= 9; m++ {
			v := numfmt.RoundSig(base*float64(m), 12)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			tk := plot.Tick{Value: v}
			if labelled[m] && (m != 1 || k%every == 0) {
				tk.Label = t.Format(v)
			}
			ticks = append(ticks, tk)
		}
	}
	return ticks
}

// countLabels is how many ticks Ticks labels in [lo, hi] with the labelled multiples.
func (LogTicks) countLabels(lo, hi float64, labelled map[int]bool, every int) int {
	n := 0
	for k := int(math.Floor(math.Log10(lo))); k <= int(math.Ceil(math.Log10(hi))); k++ {
		for m := range labelled {
			v := numfmt.RoundSig(math.Pow(10, float64(k))*float64(m), 12)
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) && (m != 1 || k%every == 0) {
				n++
			}
		}
	}
	return n
}

// LinearTicks are plot.DefaultTicks labelled with as many decimals as the step needs
// (DefaultTicks writes 1 and 1.01 both as "1" on some ranges), through format when set.
type LinearTicks struct{ Format func(float64) string }

// Ticks implements plot.Ticker.
func (t LinearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi, 0) || math.IsInf(lo, 0) {
		return nil
	}
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	var major []float64
	for _, tk := range ticks {
		if tk.Label != "" {
			major = append(major, tk.Value)
		}
	}
	step := hi - lo
	for i := 1; i < len(major); i++ {
		step = min(step, math.Abs(major[i]-major[i-1]))
	}
	decimals := 0
	for ; decimals < 12; decimals++ {
		ok := true
		for _, v := range major {
			if r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', decimals, 64), 64); math.Abs(r-v) > step*1e-3 {
				ok = false
				break
			}
		}
		if ok {
			break
		}
	}
	for i := range ticks {
		if ticks[i].Label == "" {
			continue
		}
		v := ticks[i].Value
		if math.Abs(v) < step*1e-9 {
			v = 0 // not -0 or 1e-17
		}
		if t.Format != nil {
			ticks[i].Label = t.Format(v)
		} else {
			ticks[i].Label = strconv.FormatFloat(v, 'f', decimals, 64)
		}
	}
	return ticks
}

// BytesTicks labels an axis of sizes in bytes with binary units: powers of two on a log axis,
// round numbers of MiB or GiB on a linear one.
type BytesTicks struct{ Log bool }

// Ticks implements plot.Ticker.
func (t BytesTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi, 0) || math.IsInf(lo, 0) {
		return nil
	}
	if !t.Log {
		u := ChooseUnit(max(math.Abs(lo), math.Abs(hi)))
		ticks := LinearTicks{}.Ticks(lo/u.Div, hi/u.Div)
		for i := range ticks {
			ticks[i].Value *= u.Div
			if ticks[i].Label != "" {
				ticks[i].Label += " " + u.Name
			}
		}
		return ticks
	}
	if !(lo > 0) {
		return nil
	}
	k0, k1 := int(math.Ceil(math.Log2(lo)-1e-9)), int(math.Floor(math.Log2(hi)+1e-9))
	// At most four labels: "128 MiB" is wide, and a sweep panel is a third of the page.
	step := 1
	for (k1-k0)/step+1 > 4 {
		step++
	}
	var ticks []plot.Tick
	for k := k0; k <= k1; k++ {
		v := math.Ldexp(1, k)
		tk := plot.Tick{Value: v}
		if k%step == 0 {
			tk.Label = Bytes(v)
		}
		ticks = append(ticks, tk)
	}
	return ticks
}

// SITicks are plot.DefaultTicks with k and M suffixes (1.5M for 1,500,000).
type SITicks struct{}

// Ticks implements plot.Ticker.
func (SITicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi, 0) || math.IsInf(lo, 0) {
		return nil
	}
	return LinearTicks{Format: SI}.Ticks(lo, hi)
}
