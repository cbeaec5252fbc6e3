package uncertainty

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/profile"
)

// pcgStream separates the replicas' random stream from every other user of a study's seed.
const pcgStream = 0x7e91_c0de_5eed_0019

// Replica is one perturbed run: what it changes against the profile, drawn by Model.Draw.
type Replica struct {
	// Index is the replica's place among the K (0-based).
	Index int `json:"index"`
	// Scale multiplies every object's size (stochastically rounded per object).
	Scale float64 `json:"scale"`
	// StartFraction is the eden cycle already used when the work starts, in [0, 1).
	StartFraction float64 `json:"startFraction"`
	// PhaseFractions[k] is the garbage before phase k+1, as a share of a phase's bytes.
	PhaseFractions []float64 `json:"phaseFractions,omitempty"`
	// Cost multiplies the cost model's groups (Mutator scales both mutator coefficients).
	Cost CostFactors `json:"cost"`
	// SizeSeed seeds the per-object rounding of scaled sizes.
	SizeSeed uint64 `json:"sizeSeed"`
}

// CostFactors are a replica's multipliers of the cost model's three groups.
type CostFactors struct {
	Mutator  float64 `json:"mutator"`
	Scavenge float64 `json:"scavenge"`
	FullGC   float64 `json:"fullGC"`
}

// Draw returns the model's K replicas for seed: deterministic, and each replica the same
// whatever K is (replica k depends on the seed and k only), so a study's search replicas are
// the first of its final ones. Nil when the model is off.
func (m Model) Draw(seed uint64) []Replica {
	if m.Off() {
		return nil
	}
	out := make([]Replica, m.Replicas)
	stream := uint64(pcgStream)
	if m.Scenario == ScenarioAgain {
		stream = againStream
	}
	for k := range out {
		rng := rand.New(rand.NewPCG(seed, stream+uint64(k)))
		r := Replica{Index: k, Scale: 1, Cost: CostFactors{Mutator: 1, Scavenge: 1, FullGC: 1}}
		// Every draw is made whether or not it is used, so switching one perturbation off
		// leaves the others' values unchanged.
		scale, start := rng.Float64(), rng.Float64()
		r.Scale = 1 + m.AllocationSpread*(2*scale-1)
		if m.StartPhase {
			r.StartFraction = start
		}
		mut, sca, full := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
		r.Cost = CostFactors{
			Mutator:  math.Exp(m.CostSigma * mut),
			Scavenge: math.Exp(m.CostSigma * sca),
			FullGC:   math.Exp(m.CostSigma * full),
		}
		r.SizeSeed = rng.Uint64()
		if m.Phases > 1 && m.PhaseSpread > 0 {
			r.PhaseFractions = make([]float64, m.Phases-1)
			for j := range r.PhaseFractions {
				r.PhaseFractions[j] = m.PhaseSpread * rng.Float64()
			}
		}
		out[k] = r
	}
	return out
}

// Profile returns profile as this replica allocates it: every object's size multiplied by
// Scale and rounded per object as heapsim.ScaledSize rounds it with SizeSeed. The other
// columns are shared with profile, which is not changed. Scale 1 returns profile itself.
//
// It copies the sizes: a simulation of the replica need not, since Options gives heapsim the
// scale and the seed and heapsim rounds each size as it reads it, to the same values.
func (r Replica) Profile(profile *profile.Profile) *profile.Profile {
	if r.Scale == 1 || profile == nil {
		return profile
	}
	q := *profile
	q.SizeBytes = make([]uint32, len(profile.SizeBytes))
	for i, s := range profile.SizeBytes {
		q.SizeBytes[i] = heapsim.ScaledSize(s, r.Scale, r.SizeSeed, i)
	}
	return &q
}

// Options returns the heapsim options of this replica's run of profile: its garbage
// (Garbage) and its sizes (heapsim.Options.SizeScale and SizeSeed), with which heapsim runs
// profile as Profile would return it without copying it. GarbageObjectsPerByte is left 0 (the
// caller that runs the replica many times computes it once, heapsim.Prepared.GarbageRate).
func (r Replica) Options(profile *profile.Profile) heapsim.Options {
	o := heapsim.Options{Garbage: r.Garbage(profile)}
	if r.Scale != 1 {
		o.SizeScale, o.SizeSeed = r.Scale, r.SizeSeed
	}
	return o
}

// Garbage returns the young garbage this replica allocates beside the profile's records on its
// clock: the start of the eden cycle before the first record, then each phase's burst.
func (r Replica) Garbage(profile *profile.Profile) []heapsim.Garbage {
	var g []heapsim.Garbage
	if r.StartFraction > 0 {
		g = append(g, heapsim.Garbage{AtBytes: 0, EdenFraction: r.StartFraction})
	}
	if len(r.PhaseFractions) == 0 || profile == nil {
		return g
	}
	end := profile.Meta.EndBytes
	phases := uint64(len(r.PhaseFractions) + 1)
	phaseBytes := float64(end) / float64(phases) * r.Scale
	for j, f := range r.PhaseFractions {
		g = append(g, heapsim.Garbage{AtBytes: end / phases * uint64(j+1), Bytes: uint64(f * phaseBytes)})
	}
	return g
}

// ScaleCost returns cost with the replica's factors applied to its groups.
func (r Replica) ScaleCost(cost heapsim.Cost) heapsim.Cost {
	return cost.Scaled(heapsim.Scales{MutatorByte: r.Cost.Mutator, MutatorObject: r.Cost.Mutator, Scavenge: r.Cost.Scavenge, FullGC: r.Cost.FullGC})
}

// String describes the replica in one line.
func (r Replica) String() string {
	return fmt.Sprintf("replica %d: allocation ×%.4f, start %.0f %% into the eden cycle, cost ×%.3f/%.3f/%.3f (mutator/scavenge/full GC)",
		r.Index, r.Scale, 100*r.StartFraction, r.Cost.Mutator, r.Cost.Scavenge, r.Cost.FullGC)
}
