package uncertainty

import (
	"errors"
	"fmt"
	"math"
)

// ErrInvalidModel is wrapped by every error Model.Validate returns.
var ErrInvalidModel = errors.New("uncertainty: invalid model")

// Defaults of the model, each argued in docs/search.md ("Robust answers").
const (
	// DefaultReplicas is K: the perturbed runs a recommendation is judged and stated on. 16
	// gives the interval's spread to about ±20 % of itself (a standard deviation from 16
	// samples) at 16 simulations per configuration.
	DefaultReplicas = 16
	// DefaultSearchReplicas is how many of the K replicas each search trial is simulated on
	// (the first ones: every trial on the same ones). Chosen by measurement against searching
	// on the single simulation and re-judging the best, and against 4 (docs/benchmarks.md
	// "Robust answers"): on dataframe-3.1gb it reached the best robust value for its time.
	DefaultSearchReplicas = 2
	// DefaultAllocationSpread: each replica's objects are scaled by a factor drawn uniformly in
	// [1 − a, 1 + a]: the same job on another day's input, in another image, allocates a few
	// percent more or less.
	DefaultAllocationSpread = 0.03
	// DefaultPhases and DefaultPhaseSpread: the run is cut into this many phases of equal
	// allocation, and before each phase but the first, young garbage of up to this share of a
	// phase's bytes (uniform) is allocated: what the UI process, finalisation and background
	// work allocate beside the profiled work.
	DefaultPhases      = 8
	DefaultPhaseSpread = 0.01
	// DefaultCostSigma is the standard deviation of the log of each cost group's factor: the
	// calibration's residual on the one workload whose collector counts match the published
	// run (dataframe-3.1gb: GC time −2 %, total 0 %), rounded up to 5 %. The larger residuals
	// of the two smaller workloads come from their specs' full-GC counts (docs/calibration.md),
	// which no cost factor can fix.
	DefaultCostSigma = 0.05
)

// Model is the uncertainty model: how many replicas and how each is perturbed. The zero value
// is not the default (use Default); Replicas = 0 turns perturbation off: every configuration is
// judged on the single simulation of the profile, as before robust answers. The mapstructure
// tags are the keys of the configuration's uncertainty section (package config).
type Model struct {
	// Replicas is K, the perturbed runs each recommendation is judged on and its interval
	// stated over; 0 = no perturbation, one simulation.
	Replicas int `json:"replicas" mapstructure:"replicas"`
	// SearchReplicas is how many of the K replicas each search trial runs (the first ones);
	// 0 = the search runs the single unperturbed simulation and only the recommendation is
	// judged on the K replicas. At most Replicas.
	SearchReplicas int `json:"searchReplicas" mapstructure:"search_replicas"`
	// StartPhase: each replica starts its work at a uniform point of the eden cycle.
	StartPhase bool `json:"startPhase" mapstructure:"start_phase"`
	// AllocationSpread a: each replica's object sizes are scaled by U[1 − a, 1 + a]; in [0, 0.5].
	AllocationSpread float64 `json:"allocationSpread" mapstructure:"allocation_spread"`
	// Phases and PhaseSpread: garbage of up to PhaseSpread × a phase's bytes before each of the
	// Phases phases but the first. Phases ≤ 1 or PhaseSpread = 0: none.
	Phases      int     `json:"phases" mapstructure:"phases"`
	PhaseSpread float64 `json:"phaseSpread" mapstructure:"phase_spread"`
	// CostSigma is the log-normal spread of each cost group's factor (mutator, scavenge, full
	// GC); in [0, 1].
	CostSigma float64 `json:"costSigma" mapstructure:"cost_sigma"`
}

// Default returns the model gctune uses unless told otherwise.
func Default() Model {
	return Model{
		Replicas:         DefaultReplicas,
		SearchReplicas:   DefaultSearchReplicas,
		StartPhase:       true,
		AllocationSpread: DefaultAllocationSpread,
		Phases:           DefaultPhases,
		PhaseSpread:      DefaultPhaseSpread,
		CostSigma:        DefaultCostSigma,
	}
}

// Off reports whether the model perturbs nothing: one simulation per configuration.
func (m Model) Off() bool { return m.Replicas == 0 }

// Validate checks every field and names the first bad one.
func (m Model) Validate() error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrInvalidModel, field, fmt.Sprintf(format, args...))
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case m.Replicas < 0 || m.Replicas > MaxReplicas:
		return bad("replicas", "%d is not in [0, %d]", m.Replicas, MaxReplicas)
	case m.SearchReplicas < 0 || m.SearchReplicas > m.Replicas:
		return bad("search replicas", "%d is not in [0, replicas = %d]", m.SearchReplicas, m.Replicas)
	case !finite(m.AllocationSpread) || m.AllocationSpread < 0 || m.AllocationSpread > 0.5:
		return bad("allocation spread", "%v is not a fraction in [0, 0.5]", m.AllocationSpread)
	case m.Phases < 0 || m.Phases > MaxPhases:
		return bad("phases", "%d is not in [0, %d]", m.Phases, MaxPhases)
	case !finite(m.PhaseSpread) || m.PhaseSpread < 0 || m.PhaseSpread > 1:
		return bad("phase spread", "%v is not a fraction in [0, 1]", m.PhaseSpread)
	case !finite(m.CostSigma) || m.CostSigma < 0 || m.CostSigma > 1:
		return bad("cost sigma", "%v is not in [0, 1]", m.CostSigma)
	}
	return nil
}

// Bounds of the model's counts.
const (
	// MaxReplicas bounds K: each replica is a full simulation of every workload.
	MaxReplicas = 256
	// MaxPhases bounds the garbage bursts of one replica.
	MaxPhases = 1024
)
