package study

import (
	"fmt"
	"math"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/profile/filip"
	"github.com/gctune/gctune/profile/source"
	"github.com/gctune/gctune/uncertainty"
)

// Sizes the unsampled large objects of an export are tried at (ChooseLargeBytes): from the
// smallest large object (just over 65,535 slots, 512 KiB) by factors of 2, at most
// largeBytesTries of them, then by √2 and 2^¼ beside the best.
const (
	largeBytesLow   = 512 << 10
	largeBytesStep  = 1.189207115002721 // 2^(1/4)
	largeBytesTries = 40
)

// countInformed reopens a sampled export whose rebuild inferred large objects, when the export
// carries its own counts and s can simulate, with the large objects cut into the size whose
// default run reproduces those counts (ChooseLargeBytes). Otherwise, or when no size does better
// than the rebuild's own rule (the nearest sampled large object's size, or one object per
// window), it returns what it was given.
func (s OpenSettings) countInformed(ref string, opts source.Options, p *profile.Profile, info *source.Info) (*profile.Profile, *source.Info, source.Options, error) {
	r := info.Rebuild
	if r == nil || r.InferredLarge == 0 || p.Meta.ReportedScavenges == 0 ||
		s.Cost.Validate() != nil || s.VM.Validate() != nil || opts.RebuildLargeBytes != 0 {
		return p, info, opts, nil
	}
	rawOpts := opts
	rawOpts.Rebuild = filip.HypothesisOff
	raw, _, err := source.Open(ref, rawOpts)
	if err != nil {
		return nil, nil, opts, asInput(err)
	}
	size, err := ChooseLargeBytes(raw, opts.Rebuild, s.VM, s.Cost)
	if err != nil || size == 0 {
		return p, info, opts, err
	}
	o := opts
	o.RebuildLargeBytes = size
	q, qi, err := source.Open(ref, o)
	if err != nil {
		return nil, nil, opts, asInput(err)
	}
	return q, qi, o, nil
}

// ChooseLargeBytes returns the size the large objects a sampled export missed are best cut into:
// the one whose default run (raw, the export as read, rebuilt under hyp, simulated at vm with
// cost) best reproduces the export's own totalScavenges and totalFullGCs
// (uncertainty.CountWeight), or 0 when the rebuild's own rule (the nearest sampled large
// object's size, or one object per window when it sampled none) does as well as any. The clock
// gives only the missed objects' total; how many there were decides the full GCs their
// allocations force, and the export's full-GC count says it (docs/sampling.md, "The export's
// evidence"). Sizes are tried from 512 KiB by factors of 2 until every window holds one
// object, then by √2 and 2^¼ beside the best (a dozen default runs for gigabytes of missed
// objects); deterministic, ties to one object per window, then to the smaller size.
func ChooseLargeBytes(raw *profile.Profile, hyp filip.Hypothesis, vm heapsim.Params, cost heapsim.Cost) (uint64, error) {
	try := func(size uint64) (score, bool, error) {
		p, rep, err := filip.Rebuild(raw, filip.RebuildOptions{Hypothesis: hyp, LargeObjectBytes: size})
		if err != nil {
			return score{}, false, fmt.Errorf("study: rebuild: %w", err)
		}
		sc, err := countScore(p, vm, cost)
		return sc, rep.InferredLarge <= rep.InferredWindows, err
	}
	best, _, err := try(0)
	if err != nil {
		return 0, err
	}
	bestSize := uint64(0)
	for size, n := float64(largeBytesLow), 0; n < largeBytesTries; size, n = size*2, n+1 {
		sc, onePerWindow, err := try(uint64(size))
		if err != nil {
			return 0, err
		}
		if sc.better(best) {
			best, bestSize = sc, uint64(size)
		}
		if onePerWindow {
			break
		}
	}
	// Beside the best: by √2, then by 2^¼ around the better of the three.
	for _, step := range []float64{math.Sqrt2, largeBytesStep} {
		if bestSize == 0 {
			break
		}
		center := bestSize
		for _, f := range []float64{1 / step, step} {
			size := uint64(float64(center) * f)
			sc, _, err := try(size)
			if err != nil {
				return 0, err
			}
			if sc.better(best) {
				best, bestSize = sc, size
			}
		}
	}
	return bestSize &^ 7, nil
}

// score is how well a rebuilt export's default run reproduces the export's counts: the
// CountWeight, and the log distance of the full GCs (then of the scavenges) to break ties
// among sizes inside the band.
type score struct{ weight, fullDist, scavDist float64 }

func (a score) better(b score) bool {
	switch {
	case a.weight != b.weight:
		return a.weight > b.weight
	case a.fullDist != b.fullDist:
		return a.fullDist < b.fullDist
	}
	return a.scavDist < b.scavDist
}

func countScore(p *profile.Profile, vm heapsim.Params, cost heapsim.Cost) (score, error) {
	st, err := heapsim.Simulate(p, vm, cost)
	if err != nil {
		return score{}, fmt.Errorf("study: the default run of a rebuilt export: %w", err)
	}
	m := p.Meta
	w := uncertainty.CountWeight(st.Scavenges, st.FullGCs, m.ReportedScavenges, m.ReportedFullGCs, m.ProfilerShare(), false)
	return score{weight: w,
		fullDist: math.Abs(math.Log(float64(st.FullGCs+1) / float64(m.ReportedFullGCs+1))),
		scavDist: math.Abs(math.Log(float64(st.Scavenges+1) / float64(m.ReportedScavenges+1)))}, nil
}
