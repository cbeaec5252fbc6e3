package uncertainty

import (
	"errors"
	"fmt"
	"math"
	"strings"
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
	// DefaultAgainReplicas is how many replicas the "this input again" scenario states the
	// forecast on (ScenarioAgain): as many as the decisions' scenario, so that its interval's
	// spread is known as well.
	DefaultAgainReplicas = 16
	// DefaultAgainCostSigma is the run-to-run spread of each cost group's factor when the same
	// input runs again: the published default runs were each measured twice ([IWST23-L] Table 1
	// and the default rows of Tables 3-5: 71 / 70.78 s, 248 / 248 s, 4,265 / 3,978 s, GC time
	// 11 / 11.18 s, 60 / 60.31 s, 3,793 / 3,498 s); the pooled standard deviation of the log of
	// one run, √(Σ d²/2 / 3) over the three pairs' log differences d, is 2.9 % for the total
	// and 3.4 % for the GC time: 3.5 % (docs/search.md, "Two questions").
	DefaultAgainCostSigma = 0.035
)

// Scenario names the question a set of replicas answers.
type Scenario string

const (
	// ScenarioLike is "inputs like this one": the same job on another day's input or in
	// another image (allocation scaled, object sizes varied), besides what differs between
	// two runs of the same input. The search and the recommendation's decisions are judged
	// on it, so that the choice holds off the one profiled input.
	ScenarioLike Scenario = "like"
	// ScenarioAgain is "this input again": the run-to-run differences of the same work only
	// (where the work starts in the eden cycle, the image's own young garbage, the run-to-run
	// spread of the cost), with every object as profiled. The headline forecast answers it.
	ScenarioAgain Scenario = "again"
)

// Words says what the scenario's replicas stand for, for people.
func (s Scenario) Words() string {
	if s == ScenarioAgain {
		return "runs of this input again"
	}
	return "runs of inputs like this one"
}

// againStream separates the "this input again" replicas' random stream from the decisions'
// (pcgStream), so that each scenario has its own replicas from the one study seed.
const againStream = 0x5a3e_a9a1_0000_0000

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
	// AgainReplicas is how many replicas of the "this input again" scenario (Again) the
	// headline forecast is stated over, at most Replicas; 0 = none: the forecast is stated on
	// the K replicas above (as studies made before the two scenarios were).
	AgainReplicas int `json:"againReplicas,omitempty" mapstructure:"again_replicas"`
	// AgainCostSigma is the log-normal spread of each cost group's factor from one run of the
	// same input to the next; in [0, 1].
	AgainCostSigma float64 `json:"againCostSigma,omitempty" mapstructure:"again_cost_sigma"`
	// Scenario is the question these replicas answer: "" or ScenarioLike for the model as
	// configured, ScenarioAgain for the model Again returns (its replicas come from their own
	// random stream). Not a configuration key.
	Scenario Scenario `json:"scenario,omitempty" mapstructure:"-"`
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
		AgainReplicas:    DefaultAgainReplicas,
		AgainCostSigma:   DefaultAgainCostSigma,
	}
}

// Again returns the "this input again" scenario of m: AgainReplicas replicas (at most
// Replicas: --replicas bounds both scenarios' cost), each starting at
// its own point of the eden cycle (when m's do) with m's phase garbage (the image's own young
// garbage) and the run-to-run cost spread AgainCostSigma, but every object as profiled (no
// allocation scale), drawn from their own random stream. The zero Model (off) when m has no
// such replicas or is off.
func (m Model) Again() Model {
	if m.Scenario == ScenarioAgain {
		return m
	}
	if m.Off() || m.AgainReplicas == 0 {
		return Model{}
	}
	return Model{
		Replicas:    min(m.AgainReplicas, m.Replicas),
		StartPhase:  m.StartPhase,
		Phases:      m.Phases,
		PhaseSpread: m.PhaseSpread,
		CostSigma:   m.AgainCostSigma,
		Scenario:    ScenarioAgain,
	}
}

// Assumes says in words what m's replicas vary beyond the profiled run, for the line that
// states their forecast. For the decisions' scenario, only what it adds to "this input again":
// "every object's size scaled by up to ±3 %: another day's input of the same job".
func (m Model) Assumes() string {
	if m.Question() == ScenarioLike {
		if m.AllocationSpread > 0 {
			return fmt.Sprintf("every object's size scaled by up to ±%.3g %%: another day's input of the same job", 100*m.AllocationSpread)
		}
		return "the same allocation as profiled"
	}
	var parts []string
	if m.StartPhase {
		parts = append(parts, "a random start in the eden cycle")
	}
	if m.Phases > 1 && m.PhaseSpread > 0 {
		parts = append(parts, fmt.Sprintf("up to %.3g %% more young garbage between phases", 100*m.PhaseSpread))
	}
	if m.CostSigma > 0 {
		parts = append(parts, fmt.Sprintf("a run-to-run cost spread of %.3g %%", 100*m.CostSigma))
	}
	if len(parts) == 0 {
		return "the profiled run itself"
	}
	return strings.Join(parts, ", ")
}

// Question is the scenario m's replicas answer (ScenarioLike unless m is an Again model).
func (m Model) Question() Scenario {
	if m.Scenario == ScenarioAgain {
		return ScenarioAgain
	}
	return ScenarioLike
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
	case m.AgainReplicas < 0 || m.AgainReplicas > MaxReplicas:
		return bad("again replicas", "%d is not in [0, %d]", m.AgainReplicas, MaxReplicas)
	case !finite(m.AgainCostSigma) || m.AgainCostSigma < 0 || m.AgainCostSigma > 1:
		return bad("again cost sigma", "%v is not in [0, 1]", m.AgainCostSigma)
	case m.Scenario != "" && m.Scenario != ScenarioLike && m.Scenario != ScenarioAgain:
		return bad("scenario", "%q is not like or again", m.Scenario)
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
