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
// multiple of a power of ten in range is a tick. Each label is Format's when set, else the
// value's own shortest decimal (0.01, 0.1, 1, 10, 500: labels that span decades read worse
// with a shared number of decimals, 500.00 beside 0.01).
type LogTicks struct {
	Format func(float64) string
	// Labels bounds the labels (0: ten); a narrow x axis wants four.
	Labels int
}

// Ticks implements plot.Ticker.
func (t LogTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks, labelled := t.logTicks(lo, hi)
	if ticks == nil {
		return nil
	}
	if len(labelled) < 3 {
		// Under about a third of a decade: round linear steps, as ticks of their own.
		lin := LinearTicks{Format: t.Format}.Ticks(lo, hi)
		return append(lin, unlabelled(ticks, lin)...)
	}
	labels := t.labels(labelled)
	for i := range ticks {
		if j := slices.Index(labelled, ticks[i].Value); j >= 0 {
			ticks[i].Label = labels[j]
		}
	}
	return ticks
}

// logTicks returns the ticks of [lo, hi] (unlabelled; nil for a range a log axis cannot have)
// and the values to label, ascending.
func (t LogTicks) logTicks(lo, hi float64) (ticks []plot.Tick, labelled []float64) {
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return nil, nil
	}
	inRange := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
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
	slices.Sort(labelled)
	return ticks, labelled
}

func (t LogTicks) labels(vs []float64) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		if t.Format != nil {
			out[i] = t.Format(v)
		} else {
			out[i] = strconv.FormatFloat(numfmt.RoundSig(v, 12), 'f', -1, 64)
		}
	}
	return out
}

// boundsSlack is how far, as a factor, an axis end may lie beyond its outermost label before
// Bounds widens it: a trial at 490 s under a bottom label of 500 still reads.
const boundsSlack = 1.15

// Bounds widens [lo, hi] (lo > 0) where it ends too far beyond its outermost labels (more than
// boundsSlack): to the nearest round value, m × 10^k, that t labels on the widened axis, so
// that no data lies far beyond the last label (full GCs of 11-13 s sat above a top label of
// 10, on an axis that ended at 15). An end near a label, and an axis too short for log labels
// (it gets linear steps), are left as they are.
func (t LogTicks) Bounds(lo, hi float64) (float64, float64) {
	_, l := t.logTicks(lo, hi)
	if len(l) < 3 {
		return lo, hi
	}
	topOK, bottomOK := l[len(l)-1]*boundsSlack >= hi, l[0] <= lo*boundsSlack
	if topOK && bottomOK {
		return lo, hi
	}
	labels := func(lo, hi, v float64) bool {
		_, l := t.logTicks(lo, hi)
		return len(l) >= 3 && slices.ContainsFunc(l, func(x float64) bool { return math.Abs(x-v) <= 1e-9*v })
	}
	// Up to a decade each way, one round value at a time; an end that was fine stays.
	for i := 0; i <= 9; i++ {
		up := hi
		if !topOK {
			up = roundStep(hi, i)
		}
		for j := 0; j <= 9; j++ {
			down := lo
			if !bottomOK {
				down = roundStep(lo, -1-j)
			}
			_, l := t.logTicks(down, up)
			if len(l) >= 3 && (topOK || labels(down, up, up)) && (bottomOK || labels(down, up, down)) &&
				l[len(l)-1]*boundsSlack >= up && l[0] <= down*boundsSlack {
				return down, up
			}
			if bottomOK {
				break
			}
		}
		if topOK {
			break
		}
	}
	return lo, hi
}

// roundStep is the i-th round value (m × 10^k, m = 1..9) at or above v for i ≥ 0 (0: the
// smallest at least v), or the -i-th at or below it for i < 0 (-1: the largest at most v).
func roundStep(v float64, i int) float64 {
	e := math.Pow(10, math.Floor(math.Log10(v)))
	m := v / e
	if i >= 0 {
		m = math.Ceil(m - 1e-9)
		m += float64(i)
	} else {
		m = math.Floor(m + 1e-9)
		m += float64(i + 1)
	}
	for m > 9 {
		m, e = m-9, e*10
		m = max(m, 1)
	}
	for m < 1 {
		m, e = m+9, e/10
	}
	return numfmt.RoundSig(m*e, 12)
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
