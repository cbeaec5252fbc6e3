package plotkit

import (
	"math"
	"slices"
	"strconv"

	"github.com/gctune/gctune/internal/numfmt"
	"gonum.org/v1/plot"
)

// Tick density.
const (
	// maxLinearLabels is the most labels a linear axis gets: the step is the smallest of
	// 1, 2, 5 × 10^k that keeps to it (0/50/100/150/200 on a 200-trial axis, not 0/90/180).
	maxLinearLabels = 6
	// logLabels is how many labels a log axis holds at most by default (LogTicks.Labels).
	logLabels = 10
)

// LogTicks labels a log axis with round values spread over its whole range: decades first,
// then 2× and 5×, then 3×, 4×, 6×..9×, each kept when it is at least 1/Labels of the axis's
// length away from every label kept before it (so an axis from 560 to 4,470 reads 600, 800,
// 1000, 2000, 3000, 4000, and the bottom of the range where the data lies is labelled too).
// A range too short to hold three such labels gets linear ticks' labels. Every integer
// multiple of a power of ten in range is a tick; the labels share one number format (Format
// when set, else Decimals over all of them).
type LogTicks struct {
	Format func(float64) string
	// Labels bounds the labels (0: ten); a narrow x axis wants four.
	Labels int
}

// Ticks implements plot.Ticker.
func (t LogTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return nil
	}
	inRange := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	var ticks []plot.Tick
	for k := int(math.Floor(math.Log10(lo))); k <= int(math.Ceil(math.Log10(hi))); k++ {
		for m := 1; m <= 9; m++ {
			if v := numfmt.RoundSig(math.Pow(10, float64(k))*float64(m), 12); inRange(v) {
				ticks = append(ticks, plot.Tick{Value: v})
			}
		}
	}
	n := t.Labels
	if n <= 0 {
		n = logLabels
	}
	minGap := math.Log10(hi/lo) / float64(n)
	var labelled []float64
	for _, m := range []int{1, 2, 5, 3, 4, 6, 7, 8, 9} {
		for _, tk := range ticks {
			if mantissa(tk.Value) != m {
				continue
			}
			far := true
			for _, l := range labelled {
				if math.Abs(math.Log10(tk.Value/l)) < minGap*(1-1e-9) {
					far = false
					break
				}
			}
			if far {
				labelled = append(labelled, tk.Value)
			}
		}
	}
	if len(labelled) < 3 {
		// Under about a third of a decade: round linear steps, as ticks of their own.
		lin := LinearTicks{Format: t.Format}.Ticks(lo, hi)
		return append(lin, unlabelled(ticks, lin)...)
	}
	slices.Sort(labelled)
	labels := t.labels(labelled)
	for i := range ticks {
		if j := slices.Index(labelled, ticks[i].Value); j >= 0 {
			ticks[i].Label = labels[j]
		}
	}
	return ticks
}

func (t LogTicks) labels(vs []float64) []string {
	if t.Format != nil {
		out := make([]string, len(vs))
		for i, v := range vs {
			out[i] = t.Format(v)
		}
		return out
	}
	return Decimals(vs)
}

// mantissa is the leading digit of a positive round value (6 for 600).
func mantissa(v float64) int {
	return int(math.Round(v / math.Pow(10, math.Floor(math.Log10(v)+1e-9))))
}

// unlabelled returns the ticks of extra that no tick of have is at, as minor ticks.
func unlabelled(extra, have []plot.Tick) []plot.Tick {
	var out []plot.Tick
	for _, e := range extra {
		if !slices.ContainsFunc(have, func(h plot.Tick) bool { return math.Abs(h.Value-e.Value) <= 1e-9*math.Abs(e.Value) }) {
			out = append(out, plot.Tick{Value: e.Value})
		}
	}
	return out
}

// Decimals writes values with one number format: as many decimals as the value that needs the
// most of them (up to 12), so an axis reads 0.5, 1.0, 1.5 and never 50.00 beside 60.
func Decimals(vs []float64) []string {
	decimals := 0
	for ; decimals < 12; decimals++ {
		ok := true
		for _, v := range vs {
			r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', decimals, 64), 64)
			if math.Abs(r-v) > 1e-9*math.Max(math.Abs(v), 1e-300) {
				ok = false
				break
			}
		}
		if ok {
			break
		}
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.FormatFloat(v, 'f', decimals, 64)
	}
	return out
}

// LinearTicks label a linear axis at round steps, the smallest of 1, 2, 5 × 10^k that gives
// at most six labels, with unlabelled minor ticks between them; the labels share one number
// format (Format when set, else Decimals over all of them).
type LinearTicks struct{ Format func(float64) string }

// Ticks implements plot.Ticker.
func (t LinearTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi, 0) || math.IsInf(lo, 0) {
		return nil
	}
	step, minor := linearStep(lo, hi)
	var major []float64
	var ticks []plot.Tick
	first := math.Ceil(lo/minor - 1e-9)
	for i := first; i*minor <= hi+minor*1e-9; i++ {
		v := i * minor
		if math.Abs(v) < minor*1e-9 {
			v = 0 // not -0 or 1e-17
		}
		v = numfmt.RoundSig(v, 12)
		tk := plot.Tick{Value: v}
		if r := math.Round(v / step); math.Abs(v/step-r) < 1e-6 {
			major = append(major, v)
			tk.Label = "x" // labelled below
		}
		ticks = append(ticks, tk)
	}
	var labels []string
	if t.Format != nil {
		for _, v := range major {
			labels = append(labels, t.Format(v))
		}
	} else {
		labels = Decimals(major)
	}
	j := 0
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = labels[j]
			j++
		}
	}
	return ticks
}

// linearStep returns the labelled step of [lo, hi] (see LinearTicks) and the minor step.
func linearStep(lo, hi float64) (step, minor float64) {
	span := hi - lo
	for e := math.Floor(math.Log10(span)) - 2; ; e++ {
		base := math.Pow(10, e)
		for _, m := range []float64{1, 2, 5} {
			step = m * base
			n := math.Floor(hi/step+1e-9) - math.Ceil(lo/step-1e-9) + 1
			if n <= maxLinearLabels {
				minor = step / 5
				if m == 2 {
					minor = step / 4
				}
				return step, minor
			}
		}
	}
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

// SITicks are LinearTicks in one SI unit for the whole axis, chosen by its largest value:
// 0, 0.5M, 1.0M, 1.5M (not 500k beside 1M).
type SITicks struct{}

// Ticks implements plot.Ticker.
func (SITicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(hi, 0) || math.IsInf(lo, 0) {
		return nil
	}
	div, suffix := 1.0, ""
	switch a := max(math.Abs(lo), math.Abs(hi)); {
	case a >= 1e9:
		div, suffix = 1e9, "G"
	case a >= 1e6:
		div, suffix = 1e6, "M"
	case a >= 1e4: // 2000 reads better than 2k
		div, suffix = 1e3, "k"
	}
	ticks := LinearTicks{}.Ticks(lo/div, hi/div)
	for i := range ticks {
		ticks[i].Value *= div
		switch {
		case ticks[i].Label == "":
		case ticks[i].Value == 0:
			ticks[i].Label = "0"
		default:
			ticks[i].Label += suffix
		}
	}
	return ticks
}
