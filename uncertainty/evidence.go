package uncertainty

import "math"

// What a profiled run's own collector counts allow of a reading's default run
// (docs/search.md, "The export's evidence"). A FiLiP export's totalScavenges and totalFullGCs
// are the profiled run's: the application's collections plus those its profiler caused. The
// profiler allocates besides the application (1,064 bytes per recorded allocation: its
// ephemeron, the record, the bookkeeping; ProfilerShare of the application's bytes, known from
// the rebuild) and pre-tenures its ephemerons, so the profiled run scavenges up to that share
// more often, and its old space grows by it; it never collects less. A reading of the run whose
// default run gives counts outside that band, beyond the run-to-run spread, is not a reading of
// this run.
const (
	// CountTolerance is the run-to-run spread of a count, as a fraction, inside which a
	// reading agrees with the export at full weight: two runs of one input differ by a few
	// percent in allocation (the image's own garbage, where the work starts), and the replicas
	// already draw that; 10 % leaves room for the VM's rounding of the counts of short runs.
	CountTolerance = 0.10
	// CountSoftness is the scale of the penalty beyond the band, in log units: a reading 10 %
	// beyond it weighs e^−½ of one inside it, 30 % beyond it about 1 %.
	CountSoftness = 0.10
	// MinCountWeight is the total weight (mean over the replicas, summed over the readings)
	// below which no reading reproduces the counts: every reading is then kept, equally
	// weighted, and the forecast says so rather than trusting the least wrong one.
	MinCountWeight = 1e-3
)

// CountWeight is how well a reading's default run (simScavenges, simFullGCs) reproduces the
// export's counts (obsScavenges, obsFullGCs) when the profiler added profilerShare of the
// application's bytes: 1 inside the band [sim·(1 − CountTolerance), sim·(1 + profilerShare)·(1
// + CountTolerance)] (for full GCs, one more or fewer is always inside: the profiler's tenured
// ephemerons can tip one growth), falling as exp(−½ (d/CountSoftness)²) with the log distance d
// outside it, the two counts' factors multiplied. A count of 0 in the export is taken as not
// reported for scavenges (every run scavenges) and as reported for full GCs.
//
// fullGCsFloor says that the reading's full-GC count is a floor of the run's (its missed large
// objects placed one per window, the fewest the clock allows: profile.Meta.FullGCsFloor): more
// full GCs in the export are then no contradiction.
func CountWeight(simScavenges, simFullGCs, obsScavenges, obsFullGCs int, profilerShare float64, fullGCsFloor bool) float64 {
	share := math.Max(0, profilerShare)
	band := func(sim, obs float64, slack float64, open bool) float64 {
		lo := sim*(1-CountTolerance) - slack
		hi := sim*(1+share)*(1+CountTolerance) + slack
		if open {
			hi = math.Inf(1)
		}
		var d float64
		switch {
		case obs < lo:
			d = math.Log((lo + 1) / (obs + 1))
		case obs > hi:
			d = math.Log((obs + 1) / (hi + 1))
		}
		return math.Exp(-0.5 * (d / CountSoftness) * (d / CountSoftness))
	}
	w := 1.0
	if obsScavenges > 0 {
		w *= band(float64(simScavenges), float64(obsScavenges), 0, false)
	}
	return w * band(float64(simFullGCs), float64(obsFullGCs), 1, fullGCsFloor)
}
