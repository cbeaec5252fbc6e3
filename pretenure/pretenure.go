package pretenure

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gctune/gctune/heapsim"
	"github.com/gctune/gctune/objective"
	"github.com/gctune/gctune/profile"
	"github.com/gctune/gctune/uncertainty"
)

// Defaults of Options.
const (
	// DefaultCandidates is how many sites Advise tries.
	DefaultCandidates = 3
	// DefaultTolerance is the gain a site must beat: 1 %, recommend's tolerance, about the
	// run-to-run noise of a real application.
	DefaultTolerance = 0.01
	// DefaultMinTenuredShare: a site is a candidate only when the scavenger tenures at least
	// this share of all the bytes it tenures from it.
	DefaultMinTenuredShare = 0.01
)

// Note is what every advice says about itself.
const Note = "pretenuring is a change to the application's code, not a GC parameter: it is not part of the exported configuration"

// Options are Advise's settings; the zero value takes the defaults.
type Options struct {
	// Candidates is how many sites to try (0: DefaultCandidates).
	Candidates int
	// Replicas is how many of the problem's replicas to judge on: the recommendation's K
	// (0: all of them; with the model off, the single unperturbed run).
	Replicas int
	// Tolerance is the gain a site must beat to be advised (0: DefaultTolerance).
	Tolerance float64
	// MinTenuredShare (0: DefaultMinTenuredShare).
	MinTenuredShare float64
	// LongLivedThreshold decides a site's long-lived share (0: profile.DefaultLongLivedThreshold).
	LongLivedThreshold float64
}

// Candidate is one site set tried.
type Candidate struct {
	// Sites are the sites pretenured, as the profile names them.
	Sites []string `json:"sites"`
	// TenuredBytes are the bytes the scavenger copied and then tenured from them at the tuned
	// parameters (the unperturbed run, all workloads); LongLivedShare the share of their
	// objects that are long-lived. Score = TenuredBytes × LongLivedShare ranked them.
	TenuredBytes   uint64  `json:"tenuredBytes"`
	LongLivedShare float64 `json:"longLivedShare"`
	Score          float64 `json:"score"`
	// Gains are the paired speedups, per replica, of the tuned run with the sites pretenured
	// over the tuned run without (total time of all workloads); Gain their statistic (the
	// problem's) and Interval their range (uncertainty.RangeInterval).
	Gains    []float64            `json:"gains"`
	Gain     float64              `json:"gain"`
	Interval uncertainty.Interval `json:"interval"`
	// FullGCs and FullGCsPretenured are the full GCs of the median replica's run without and
	// with the sites pretenured (all workloads): the cost side of the trade-off.
	FullGCs           int `json:"fullGCs"`
	FullGCsPretenured int `json:"fullGCsPretenured"`
	// Advised: Gain beats the tolerance.
	Advised bool `json:"advised"`
	// Change is the Pharo code change.
	Change string `json:"change"`
}

// Advice is Advise's answer.
type Advice struct {
	// Params are the tuned parameters the sites were tried on.
	Params heapsim.Params `json:"params"`
	// Replicas is how many replicas judged them (0: the unperturbed run).
	Replicas int `json:"replicas"`
	// Tolerance is the gain a site had to beat.
	Tolerance float64 `json:"tolerance"`
	// Candidates are the sites tried alone, best score first; Combined, when two or more
	// were advised, is all of those together.
	Candidates []Candidate `json:"candidates"`
	Combined   *Candidate  `json:"combined,omitempty"`
	// Note says that this is a code change, not a parameter.
	Note string `json:"note"`
}

// Advised returns the candidates that were advised, the combination first when there is one.
func (a *Advice) Advised() []Candidate {
	var out []Candidate
	if a.Combined != nil && a.Combined.Advised {
		out = append(out, *a.Combined)
	}
	for _, c := range a.Candidates {
		if c.Advised {
			out = append(out, c)
		}
	}
	return out
}

// ErrNoSites is returned when no workload of the problem names allocation sites.
var ErrNoSites = errors.New("pretenure: no workload names allocation sites")

// Advise tries pretenuring the most promising sites of prob's workloads on top of params and
// judges each on the problem's replicas. Candidates are ranked by the bytes the scavenger
// copied and then tenured from them at params, times the share of their objects that are
// long-lived: the tenured bytes are the copies pretenuring saves (a site whose objects die
// young has none, and pretenuring it would only fill old space with garbage that costs full
// GCs), and the long-lived share discounts sites whose tenured objects die soon after, which
// pretenured would become old-space garbage all the same. A site is matched by name across
// workloads.
func Advise(prob *objective.Problem, params heapsim.Params, opts Options) (*Advice, error) {
	if prob == nil {
		return nil, errors.New("pretenure: nil problem")
	}
	if err := params.Validate(); err != nil {
		return nil, fmt.Errorf("pretenure: %w", err)
	}
	opts = withDefaults(opts, prob)
	if opts.Replicas < 0 || opts.Replicas > prob.ReplicaCount() {
		return nil, fmt.Errorf("pretenure: %d replicas asked, the model has %d", opts.Replicas, prob.ReplicaCount())
	}
	scores, err := rank(prob, params, opts)
	if err != nil {
		return nil, err
	}
	adv := &Advice{Params: params, Replicas: opts.Replicas, Tolerance: opts.Tolerance, Note: Note}
	base, err := runs(prob, params, opts.Replicas)
	if err != nil {
		return nil, err
	}
	var advised []string
	for _, sc := range scores[:min(len(scores), opts.Candidates)] {
		c, err := judge(prob, params, opts, base, []string{sc.site})
		if err != nil {
			return nil, err
		}
		c.TenuredBytes, c.LongLivedShare, c.Score = sc.tenured, sc.longShare, sc.score
		adv.Candidates = append(adv.Candidates, *c)
		if c.Advised {
			advised = append(advised, sc.site)
		}
	}
	if len(advised) >= 2 {
		c, err := judge(prob, params, opts, base, advised)
		if err != nil {
			return nil, err
		}
		for _, a := range adv.Candidates {
			if a.Advised {
				c.TenuredBytes += a.TenuredBytes
			}
		}
		adv.Combined = c
	}
	return adv, nil
}

func withDefaults(o Options, prob *objective.Problem) Options {
	if o.Candidates == 0 {
		o.Candidates = DefaultCandidates
	}
	if o.Replicas == 0 {
		o.Replicas = prob.ReplicaCount()
	}
	if o.Tolerance == 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.MinTenuredShare == 0 {
		o.MinTenuredShare = DefaultMinTenuredShare
	}
	if o.LongLivedThreshold == 0 {
		o.LongLivedThreshold = profile.DefaultLongLivedThreshold
	}
	return o
}

// siteScore is a site's rank.
type siteScore struct {
	site      string
	tenured   uint64
	longShare float64
	score     float64
}

// rank simulates every workload once at params, unperturbed, and scores its sites.
func rank(prob *objective.Problem, params heapsim.Params, opts Options) ([]siteScore, error) {
	tenured := map[string]uint64{}
	long, objects := map[string]float64{}, map[string]float64{}
	var total uint64
	named := false
	for _, w := range prob.Workloads() {
		p := w.Profile
		if !p.HasSites() {
			continue
		}
		named = true
		by := make([]uint64, len(p.SiteNames))
		if _, err := heapsim.Run(p, params, prob.Cost(), heapsim.Options{TenuredBytesBySite: by}); err != nil && !errors.Is(err, heapsim.ErrOutOfMemory) {
			return nil, fmt.Errorf("pretenure: workload %q: %w", w.Name, err)
		}
		for s, b := range by {
			tenured[p.SiteNames[s]] += b
			total += b
		}
		longBytes := uint64(opts.LongLivedThreshold * float64(p.Meta.EndBytes))
		for i, s := range p.Site {
			name := p.SiteNames[s]
			wt := float64(p.Weight[i])
			objects[name] += wt
			if p.AliveAtEnd(i) || p.Death[i]-p.Birth[i] >= longBytes {
				long[name] += wt
			}
		}
	}
	if !named {
		return nil, ErrNoSites
	}
	var out []siteScore
	for name, b := range tenured {
		if name == profile.UnknownSite || total == 0 || float64(b) < opts.MinTenuredShare*float64(total) {
			continue
		}
		ls := long[name] / objects[name]
		out = append(out, siteScore{site: name, tenured: b, longShare: ls, score: float64(b) * ls})
	}
	slices.SortFunc(out, func(a, b siteScore) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.site, b.site)
	})
	return out, nil
}

// run is one configuration's runs on the replicas: per replica the total seconds of all
// workloads and their full GCs.
type run struct {
	seconds []float64
	fullGCs []int
}

// runs judges params on the first n replicas of prob (n = 0: the unperturbed run).
func runs(prob *objective.Problem, params heapsim.Params, n int) (run, error) {
	var r run
	add := func(res objective.Result) {
		var s float64
		var f int
		for _, st := range res.Stats {
			s += st.TotalSeconds
			f += st.FullGCs
		}
		r.seconds = append(r.seconds, s)
		r.fullGCs = append(r.fullGCs, f)
	}
	if n == 0 {
		res, err := prob.EvaluateNominal(params)
		if err != nil {
			return r, err
		}
		add(res)
		return r, nil
	}
	for k := range n {
		res, err := prob.EvaluateReplica(params, k)
		if err != nil {
			return r, err
		}
		add(res)
	}
	return r, nil
}

// judge pretenures sites in every workload that names them and judges params on the same
// replicas: a problem over the pretenured views with prob's settings and seed draws the same
// replicas (uncertainty.Model.Draw).
func judge(prob *objective.Problem, params heapsim.Params, opts Options, base run, sites []string) (*Candidate, error) {
	var ws []objective.Workload
	for _, w := range prob.Workloads() {
		p := w.Profile
		if p.HasSites() {
			var idx []uint32
			for _, s := range sites {
				idx = append(idx, p.MatchSites(s)...)
			}
			if len(idx) > 0 {
				q, err := heapsim.Pretenured(p, idx)
				if err != nil {
					return nil, err
				}
				p = q
			}
		}
		ws = append(ws, objective.Workload{Name: w.Name, Profile: p, Run: w.Run})
	}
	pp, err := objective.NewProblem(ws, prob.Cost(), prob.Base(), prob.Settings())
	if err != nil {
		return nil, fmt.Errorf("pretenure: %s: %w", strings.Join(sites, ", "), err)
	}
	pre, err := runs(pp, params, opts.Replicas)
	if err != nil {
		return nil, fmt.Errorf("pretenure: %s: %w", strings.Join(sites, ", "), err)
	}
	c := &Candidate{Sites: sites, Change: Change(sites)}
	for k := range base.seconds {
		g := math.NaN()
		if pre.seconds[k] > 0 {
			g = base.seconds[k] / pre.seconds[k]
		}
		c.Gains = append(c.Gains, g)
	}
	c.Gain = prob.Settings().Statistic.Reduce(c.Gains)
	c.Interval = uncertainty.RangeInterval(c.Gains)
	m := medianIndex(base.seconds)
	c.FullGCs, c.FullGCsPretenured = base.fullGCs[m], pre.fullGCs[m]
	c.Advised = c.Gain >= 1+opts.Tolerance
	return c, nil
}

// medianIndex is the index of the median value (the lower of the two middle ones).
func medianIndex(v []float64) int {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	return idx[(len(idx)-1)/2]
}

// Change words the Pharo code change for sites: allocate there with the old-space variants of
// the allocation selectors. FiLiP records as the site the first method on the stack whose
// receiver is not the allocated object's class (FiLiP>>internalRegisterAllocation:), so the
// send to change is in that method, or, when it is a library method such as
// SequenceableCollection>>#collect:, in its caller, which then allocates its result itself.
func Change(sites []string) string {
	var b strings.Builder
	for i, s := range sites {
		if i > 0 {
			b.WriteString("; ")
		}
		m, off := profile.SplitSite(s)
		b.WriteString("in " + m)
		if off != "" {
			b.WriteString(" (at pc " + off + ")")
		}
		b.WriteString(": basicNew → basicNewTenured, basicNew: → basicNewTenured:, new → newTenured")
	}
	return b.String()
}
