package spec

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gctune/gctune/profile"
)

// Validate checks the spec's consistency: names present and unique, classes declared, sizes
// available, shares summing to 1, distribution parameters in range, placements known,
// until-phase-end naming this or a later phase, and the run within 2^62 bytes. Errors are
// *Error values naming the key path and wrap ErrInvalid.
func (s *Spec) Validate() error {
	v := specValidator{s: s}
	return v.run()
}

type specValidator struct {
	s       *Spec
	classes map[string]int
	// containers holds the container names declared by the phases seen so far.
	containers map[string]bool
}

func (v *specValidator) errf(path, format string, args ...any) error {
	return &Error{File: v.s.origin, Line: v.s.line(path), Path: path, Msg: fmt.Sprintf(format, args...)}
}

// line is the line a key path was read from, or that of its nearest ancestor (a missing key is
// reported at its parent's line); 0 for a Spec built in Go.
func (s *Spec) line(path string) int {
	for path != "" {
		if l, ok := s.lines[path]; ok {
			return l
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 0
}

func (v *specValidator) run() error {
	s := v.s
	if strings.TrimSpace(s.Name) == "" {
		return v.errf("name", "missing: every spec needs a name")
	}
	if s.Resolution != 0 && !(s.Resolution >= specMinResolution && s.Resolution <= 1) {
		return v.errf("resolution", "%v is not a number of records per real object in [%g, 1]", s.Resolution, specMinResolution)
	}
	if s.Reported.Scavenges < 0 || s.Reported.FullGCs < 0 || s.Reported.RunSeconds < 0 || math.IsNaN(s.Reported.RunSeconds) || math.IsInf(s.Reported.RunSeconds, 0) {
		return v.errf("reported", "counts and seconds must be finite and not negative")
	}
	if len(s.Classes) == 0 {
		return v.errf("classes", "missing: declare at least one class")
	}
	v.classes = make(map[string]int, len(s.Classes))
	for i, c := range s.Classes {
		path := fmt.Sprintf("classes[%d]", i)
		if strings.TrimSpace(c.Name) == "" {
			return v.errf(path+".name", "missing class name")
		}
		if _, dup := v.classes[c.Name]; dup {
			return v.errf(path+".name", "class %q declared twice", c.Name)
		}
		v.classes[c.Name] = i
		if c.Size != nil {
			if err := v.dist(c.Size, path+".size", false, -1); err != nil {
				return err
			}
		}
	}
	if len(s.Phases) == 0 {
		return v.errf("phases", "missing: a spec needs at least one phase")
	}
	phaseNames := make(map[string]int, len(s.Phases))
	for i, ph := range s.Phases {
		path := fmt.Sprintf("phases[%d]", i)
		if strings.TrimSpace(ph.Name) == "" {
			return v.errf(path+".name", "missing phase name")
		}
		if _, dup := phaseNames[ph.Name]; dup {
			return v.errf(path+".name", "phase %q named twice", ph.Name)
		}
		phaseNames[ph.Name] = i
	}
	fractions := 0.0
	anyFraction, anyBytes := false, false
	for i, ph := range s.Phases {
		path := fmt.Sprintf("phases[%d]", i)
		switch {
		case ph.AllocateFraction != 0 && ph.AllocateBytes != 0:
			return v.errf(path+".allocate", "give bytes or a percentage, not both")
		case ph.AllocateFraction != 0:
			if !(ph.AllocateFraction > 0 && ph.AllocateFraction <= 1) {
				return v.errf(path+".allocate", "percentage %v%% is not in (0%%, 100%%]", ph.AllocateFraction*100)
			}
			anyFraction = true
			fractions += ph.AllocateFraction
		case ph.AllocateBytes != 0:
			anyBytes = true
		}
	}
	switch {
	case anyFraction && s.AllocateBytes == 0:
		return v.errf("allocate", "missing: phases give their allocation as percentages of the spec's allocate")
	case anyFraction && anyBytes:
		return v.errf("phases", "phases mix byte and percentage allocations: with a spec-level allocate, give every phase a percentage")
	case s.AllocateBytes != 0 && anyBytes:
		return v.errf("allocate", "the spec gives a total allocation but phases give bytes: give the phases percentages of it")
	case s.AllocateBytes != 0 && !anyFraction:
		return v.errf("allocate", "the spec gives a total allocation but no phase gives a percentage of it")
	case anyFraction && math.Abs(fractions-1) > specShareTolerance:
		return v.errf("phases", "phase allocations sum to %.6g%% of allocate, want 100%%", fractions*100)
	}
	for i := range s.Phases {
		if err := v.containerNames(i); err != nil {
			return err
		}
	}
	runBytes := 0.0
	for i := range s.Phases {
		if err := v.phase(i); err != nil {
			return err
		}
		runBytes += v.phaseBytes(i)
	}
	if runBytes > specMaxRunBytes {
		return v.errf("phases", "the run would allocate %.3g bytes, more than the %.3g a profile's clock allows", runBytes, float64(specMaxRunBytes))
	}
	return nil
}

// phaseMixBytes is phase i's mix allocation in bytes.
func (s *Spec) phaseMixBytes(i int) uint64 {
	ph := &s.Phases[i]
	if ph.AllocateFraction != 0 {
		return uint64(math.Round(ph.AllocateFraction * float64(s.AllocateBytes)))
	}
	return ph.AllocateBytes
}

// phaseBytes bounds phase i's length on the clock: the mix plus the largest sizes its large,
// growing and container objects can have. Called after the phase validated.
func (v *specValidator) phaseBytes(i int) float64 {
	ph := &v.s.Phases[i]
	total := float64(v.s.phaseMixBytes(i))
	for _, l := range ph.Large {
		total += float64(l.Count) * v.sizeBound(l.Size, l.Class)
	}
	for _, c := range ph.Containers {
		size := float64(c.SizeBytes)
		switch {
		case c.Slots != 0:
			size = float64(profile.ObjectBytesForSlots(uint64(c.Slots)))
		case c.SizeBytes == 0:
			size = v.sizeBound(nil, c.Class)
		}
		total += float64(max(c.Count, 1)) * size
	}
	for _, g := range ph.Growing {
		f := g.Factor
		if f == 0 {
			f = 2
		}
		total += float64(g.Count) * float64(growSteps(g.FromBytes, g.ToBytes, f)) * float64(g.ToBytes)
	}
	return total
}

// sizeBound is the largest size an entry's size distribution (or its class's) can draw.
func (v *specValidator) sizeBound(own *Dist, class string) float64 {
	d := own
	if d == nil {
		d = v.s.Classes[v.classes[class]].Size
	}
	hi := float64(specMaxObjectBytes)
	switch {
	case d.Kind == distFixed:
		hi = d.ValueBytes
	case d.Kind == distChoice:
		hi = slices.Max(d.ValuesBytes)
	case d.MaxBytes != 0:
		hi = d.MaxBytes
	}
	return math.Max(profile.MinObjectBytes, math.Min(hi+8, specMaxObjectBytes))
}

func (v *specValidator) class(name, path string) (int, error) {
	if name == "" {
		return 0, v.errf(path, "missing class")
	}
	i, ok := v.classes[name]
	if !ok {
		names := make([]string, len(v.s.Classes))
		for j, c := range v.s.Classes {
			names[j] = c.Name
		}
		return 0, v.errf(path, "unknown class %q (declared: %s)", name, strings.Join(names, ", "))
	}
	return i, nil
}

// sizeOf checks that an entry has a size (its own or its class's).
func (v *specValidator) sizeOf(own *Dist, class int, path string, phase int) error {
	if own != nil {
		return v.dist(own, path+".size", false, phase)
	}
	if v.s.Classes[class].Size == nil {
		return v.errf(path+".size", "missing: class %q declares no size, so this entry must give one", v.s.Classes[class].Name)
	}
	return nil
}

func validPlacement(at string) bool {
	switch at {
	case "", "even", "start", "end", "random":
		return true
	}
	return false
}

func (v *specValidator) phase(i int) error {
	ph := &v.s.Phases[i]
	path := fmt.Sprintf("phases[%d]", i)
	mixBytes := v.s.phaseMixBytes(i)
	if mixBytes > specMaxRunBytes {
		return v.errf(path+".allocate", "%d bytes is more than the %d a profile's clock allows", mixBytes, uint64(specMaxRunBytes))
	}
	switch {
	case mixBytes > 0 && len(ph.Mix) == 0:
		return v.errf(path+".mix", "missing: the phase allocates %d bytes but has no mix", mixBytes)
	case mixBytes == 0 && len(ph.Mix) > 0:
		return v.errf(path+".allocate", "missing: the phase has a mix but allocates nothing")
	case mixBytes == 0 && len(ph.Large) == 0 && len(ph.Growing) == 0 && len(ph.Containers) == 0:
		return v.errf(path, "the phase allocates nothing: give allocate and a mix, or large, growing or container objects")
	}
	sum := 0.0
	for j, m := range ph.Mix {
		mp := fmt.Sprintf("%s.mix[%d]", path, j)
		c, err := v.class(m.Class, mp+".class")
		if err != nil {
			return err
		}
		if !(m.Share > 0 && m.Share <= 1) {
			return v.errf(mp+".share", "%v is not a share of the phase's objects in (0, 1]", m.Share)
		}
		sum += m.Share
		if m.Resolution != 0 && !(m.Resolution >= specMinResolution && m.Resolution <= 1) {
			return v.errf(mp+".resolution", "%v is not a number of records per real object in [%g, 1]", m.Resolution, specMinResolution)
		}
		if err := v.sizeOf(m.Size, c, mp, i); err != nil {
			return err
		}
		if m.Lifetime.Kind == "" {
			return v.errf(mp+".lifetime", "missing: every mix entry needs a lifetime")
		}
		if err := v.dist(&m.Lifetime, mp+".lifetime", true, i); err != nil {
			return err
		}
		if err := v.storedInto(m.StoredInto, mp+".storedInto"); err != nil {
			return err
		}
		if err := v.heldBy(ph, j, mp+".heldBy"); err != nil {
			return err
		}
	}
	if len(ph.Mix) > 0 && math.Abs(sum-1) > specShareTolerance {
		return v.errf(path+".mix", "shares sum to %.6g, want 1", sum)
	}
	for j, l := range ph.Large {
		lp := fmt.Sprintf("%s.large[%d]", path, j)
		c, err := v.class(l.Class, lp+".class")
		if err != nil {
			return err
		}
		if err := v.sizeOf(l.Size, c, lp, i); err != nil {
			return err
		}
		if l.Count < 1 {
			return v.errf(lp+".count", "missing or zero: want at least 1 object")
		}
		if !validPlacement(l.At) {
			return v.errf(lp+".at", "unknown placement %q (want even, start, end or random)", l.At)
		}
		if l.EveryBytes != 0 {
			if l.At != "" {
				return v.errf(lp+".every", "give at or every, not both")
			}
			if float64(l.Count)*float64(l.EveryBytes) > float64(mixBytes) {
				return v.errf(lp+".every", "%d objects every %d bytes need %.4g bytes, but the phase allocates %d", l.Count, l.EveryBytes, float64(l.Count)*float64(l.EveryBytes), mixBytes)
			}
		}
		if err := v.optionalLifetime(&l.Lifetime, lp+".lifetime", i); err != nil {
			return err
		}
	}
	for j, g := range ph.Growing {
		gp := fmt.Sprintf("%s.growing[%d]", path, j)
		if _, err := v.class(g.Class, gp+".class"); err != nil {
			return err
		}
		if g.Count < 1 {
			return v.errf(gp+".count", "missing or zero: want at least 1 collection")
		}
		if g.FromBytes < 16 {
			return v.errf(gp+".from", "%d bytes is below the 16-byte minimum object", g.FromBytes)
		}
		if g.ToBytes < g.FromBytes {
			return v.errf(gp+".to", "%d bytes is smaller than from (%d)", g.ToBytes, g.FromBytes)
		}
		if g.ToBytes > specMaxObjectBytes {
			return v.errf(gp+".to", "%d bytes exceeds the largest object a record holds (%d)", g.ToBytes, uint64(specMaxObjectBytes))
		}
		f := g.Factor
		if f == 0 {
			f = 2
		}
		if !(f > 1) || math.IsInf(f, 0) {
			return v.errf(gp+".factor", "%v: want a growth factor above 1", g.Factor)
		}
		if growSteps(g.FromBytes, g.ToBytes, f) > specMaxGrowSteps {
			return v.errf(gp+".factor", "growing from %d to %d bytes by %v takes more than %d steps", g.FromBytes, g.ToBytes, f, specMaxGrowSteps)
		}
		if g.FillBytes != 0 {
			sizes := growSizes(g.FromBytes, g.ToBytes, f)
			if g.FillBytes > g.ToBytes {
				return v.errf(gp+".fill", "%d bytes is more than the last array (to: %d)", g.FillBytes, g.ToBytes)
			}
			if n := len(sizes); n > 1 && g.FillBytes < sizes[n-2] {
				return v.errf(gp+".fill", "%d bytes is less than the next-to-last array (%d bytes): the last would come after the phase", g.FillBytes, sizes[n-2])
			}
		}
		if err := v.optionalLifetime(&g.Lifetime, gp+".lifetime", i); err != nil {
			return err
		}
	}
	for j, c := range ph.Containers {
		cp := fmt.Sprintf("%s.containers[%d]", path, j)
		ci, err := v.class(c.Class, cp+".class")
		if err != nil {
			return err
		}
		switch {
		case c.Slots != 0 && c.SizeBytes != 0:
			return v.errf(cp+".slots", "give slots or size, not both")
		case c.Slots != 0:
			if profile.ObjectBytesForSlots(uint64(c.Slots)) > specMaxObjectBytes {
				return v.errf(cp+".slots", "%d slots exceed the largest object a record holds (%d bytes)", c.Slots, uint64(specMaxObjectBytes))
			}
		case c.SizeBytes != 0:
			if c.SizeBytes > specMaxObjectBytes {
				return v.errf(cp+".size", "%d bytes exceeds the largest object a record holds (%d)", c.SizeBytes, uint64(specMaxObjectBytes))
			}
		default:
			if v.s.Classes[ci].Size == nil {
				return v.errf(cp+".slots", "missing: give slots or size (class %q declares no size)", c.Class)
			}
		}
		if c.Count < 0 {
			return v.errf(cp+".count", "%d: want at least 1 container", c.Count)
		}
		if !validPlacement(c.At) {
			return v.errf(cp+".at", "unknown placement %q (want start, even, end or random)", c.At)
		}
		switch c.Receives {
		case "", "phase", "life", "none":
		default:
			return v.errf(cp+".receives", "unknown %q (want phase, life or none)", c.Receives)
		}
		if !(c.Immediates >= 0 && c.Immediates <= 1) {
			return v.errf(cp+".immediates", "%v is not a share of the slots in [0, 1]", c.Immediates)
		}
		if err := v.optionalLifetime(&c.Lifetime, cp+".lifetime", i); err != nil {
			return err
		}
	}
	return nil
}

// containerNames registers the names of phase i's growing and containers entries, which must
// be unique over the spec.
func (v *specValidator) containerNames(i int) error {
	if v.containers == nil {
		v.containers = make(map[string]bool)
	}
	ph := &v.s.Phases[i]
	add := func(name, path string) error {
		if name == "" {
			return nil
		}
		if v.containers[name] {
			return v.errf(path, "container %q named twice", name)
		}
		v.containers[name] = true
		return nil
	}
	for j, g := range ph.Growing {
		if err := add(g.Name, fmt.Sprintf("phases[%d].growing[%d].name", i, j)); err != nil {
			return err
		}
	}
	for j, c := range ph.Containers {
		if err := add(c.Name, fmt.Sprintf("phases[%d].containers[%d].name", i, j)); err != nil {
			return err
		}
	}
	return nil
}

// heldBy checks mix entry j's heldBy: the class of exactly one other entry of the phase.
func (v *specValidator) heldBy(ph *Phase, j int, path string) error {
	name := ph.Mix[j].HeldBy
	if name == "" {
		return nil
	}
	if ph.Mix[j].Class == name {
		return v.errf(path, "%q is this entry's own class: name the class of another mix entry of the phase", name)
	}
	switch n := countMixClass(ph, name); n {
	case 0:
		return v.errf(path, "no mix entry of the phase allocates class %q", name)
	case 1:
		return nil
	default:
		return v.errf(path, "%d mix entries of the phase allocate class %q: the holder must be one entry", n, name)
	}
}

// countMixClass is how many mix entries of ph allocate class name.
func countMixClass(ph *Phase, name string) int {
	n := 0
	for _, m := range ph.Mix {
		if m.Class == name {
			n++
		}
	}
	return n
}

// storedInto checks a mix entry's storedInto: a named container, a phase or a part of the
// life within [0, 1].
func (v *specValidator) storedInto(st *StoredInto, path string) error {
	if st == nil {
		return nil
	}
	if st.Container == "" {
		return v.errf(path+".container", "missing: name the container the objects are stored into")
	}
	if !v.containers[st.Container] {
		return v.errf(path+".container", "no growing or containers entry is named %q", st.Container)
	}
	if st.At != "" {
		if st.From != 0 || st.For != 0 {
			return v.errf(path+".at", "give at (a phase) or from and for, not both")
		}
		if !slices.ContainsFunc(v.s.Phases, func(p Phase) bool { return p.Name == st.At }) {
			return v.errf(path+".at", "no phase is named %q", st.At)
		}
	}
	if !(st.From >= 0 && st.From < 1) {
		return v.errf(path+".from", "%v: want birth or a fraction of the lifetime in [0, 1)", st.From)
	}
	if !(st.For >= 0 && st.From+st.For <= 1+specShareTolerance) {
		return v.errf(path+".for", "%v: want a fraction of the lifetime in (0, %v]", st.For, 1-st.From)
	}
	return nil
}

func (v *specValidator) optionalLifetime(d *Dist, path string, phase int) error {
	if d.Kind == "" {
		if !zeroDist(d) {
			return v.errf(path+".dist", "missing distribution name")
		}
		return nil
	}
	return v.dist(d, path, true, phase)
}

func finitePos(x float64) bool    { return x > 0 && !math.IsInf(x, 0) }
func finiteNonNeg(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }

// dist checks a distribution. phase is the index of the phase using it (-1 for a class size).
func (v *specValidator) dist(d *Dist, path string, lifetime bool, phase int) error {
	what := "size"
	if lifetime {
		what = "lifetime"
	}
	k, ok := lookupDistKind(d.Kind)
	if !ok {
		return v.errf(path+".dist", "unknown %s distribution %q (want one of: %s)", what, d.Kind, strings.Join(specDistKinds(lifetime), ", "))
	}
	if k.lifetimeOnly && !lifetime {
		return v.errf(path+".dist", "distribution %q is for lifetimes, not sizes", d.Kind)
	}
	// Parameters the kind does not take must be unset (a Spec built in Go). Both checks go
	// through distParams in order, so the error reported first does not depend on map order.
	for _, dp := range distParams {
		if dp.isSet(d) && !slices.Contains(k.params, dp.name) {
			return v.errf(path+"."+dp.name, "distribution %s does not take %s", d.Kind, dp.name)
		}
	}
	for _, dp := range distParams {
		if dp.number != nil && !finiteNonNeg(*dp.number(d)) {
			return v.errf(path+"."+dp.name, "%v: want a finite, non-negative number", *dp.number(d))
		}
	}
	limit := float64(specMaxRunBytes)
	if !lifetime {
		limit = specMaxObjectBytes
	}
	unit := "bytes"
	if lifetime {
		unit = "bytes of allocation"
	}
	if d.MaxBytes != 0 && d.MinBytes > d.MaxBytes {
		return v.errf(path+".min", "%.6g is above max (%.6g)", d.MinBytes, d.MaxBytes)
	}
	if d.MinBytes > limit {
		return v.errf(path+".min", "%.6g %s is more than %.6g", d.MinBytes, unit, limit)
	}
	c := &distCheck{v: v, d: d, path: path, lifetime: lifetime, phase: phase, limit: limit, unit: unit, what: what}
	if k.check != nil {
		if err := k.check(c); err != nil {
			return err
		}
	}
	if d.MaxBytes > limit {
		return v.errf(path+".max", "%.6g %s is more than %.6g", d.MaxBytes, unit, limit)
	}
	return nil
}

// distCheck is what a distribution kind's check (distKinds' check column) sees.
type distCheck struct {
	v        *specValidator
	d        *Dist
	path     string
	lifetime bool
	phase    int     // the index of the phase using it (-1 for a class size)
	limit    float64 // the largest value: an object's size, or the run's length for lifetimes
	unit     string  // "bytes" or "bytes of allocation"
	what     string  // "size" or "lifetime"
}

func (c *distCheck) errf(key, format string, args ...any) error {
	return c.v.errf(c.path+"."+key, format, args...)
}

// need checks, in order, that the numeric parameters keys are set, finite and (all but sigma,
// shape and alpha) within the limit.
func (c *distCheck) need(keys ...string) error {
	for _, k := range keys {
		x := 0.0
		for _, dp := range distParams {
			if dp.name == k && dp.number != nil {
				x = *dp.number(c.d)
			}
		}
		if !finitePos(x) {
			return c.errf(k, "missing or zero: distribution %s needs %s > 0", c.d.Kind, k)
		}
		if x > c.limit && k != "sigma" && k != "shape" && k != "alpha" {
			return c.errf(k, "%.6g %s is more than %.6g", x, c.unit, c.limit)
		}
	}
	return nil
}

// tail checks a shape or tail index parameter (named as in "a shape").
func (c *distCheck) tail(k, named string, x float64) error {
	if x < 1e-3 || x > 1e6 {
		return c.errf(k, "%v: want %s in [0.001, 1e6]", x, named)
	}
	return nil
}

// The checks of the distribution kinds, beyond their parameters being finite and
// non-negative (distKinds' check column).

// sizeBound checks a parameter a size needs (missing: the message when it is zero) and that
// it is within the limit.
func (c *distCheck) sizeBound(k string, x float64, missing string) error {
	if !c.lifetime && x == 0 {
		return c.errf(k, "%s", missing)
	} else if x > c.limit {
		return c.errf(k, "%.6g %s is more than %.6g", x, c.unit, c.limit)
	}
	return nil
}

func checkFixed(c *distCheck) error {
	return c.sizeBound("value", c.d.ValueBytes, "missing or zero: a size must be positive")
}

func checkUniform(c *distCheck) error {
	return c.sizeBound("max", c.d.MaxBytes, "missing: a uniform size needs max")
}

func checkMean(c *distCheck) error { return c.need("mean") }

func checkLognormal(c *distCheck) error {
	if err := c.need("median"); err != nil {
		return err
	}
	if c.d.Sigma > 20 {
		return c.errf("sigma", "%v: want a sigma (of the log) up to 20", c.d.Sigma)
	}
	return nil
}

func checkGamma(c *distCheck) error {
	if err := c.need("mean", "shape"); err != nil {
		return err
	}
	return c.tail("shape", "a shape", c.d.Shape)
}

func checkWeibull(c *distCheck) error {
	if err := c.need("scale", "shape"); err != nil {
		return err
	}
	return c.tail("shape", "a shape", c.d.Shape)
}

func checkPareto(c *distCheck) error {
	if err := c.need("scale", "alpha"); err != nil {
		return err
	}
	return c.tail("alpha", "an alpha", c.d.Alpha)
}

func checkChoice(c *distCheck) error {
	d, path := c.d, c.path
	if len(d.ValuesBytes) == 0 {
		return c.errf("values", "missing: choice needs a list of values")
	}
	if len(d.ValuesBytes) > 1<<16 {
		return c.errf("values", "%d values, more than %d", len(d.ValuesBytes), 1<<16)
	}
	if len(d.Weights) != 0 && len(d.Weights) != len(d.ValuesBytes) {
		return c.errf("weights", "%d weights for %d values", len(d.Weights), len(d.ValuesBytes))
	}
	sum := 0.0
	for k, w := range d.Weights {
		if !finiteNonNeg(w) {
			return c.v.errf(fmt.Sprintf("%s.weights[%d]", path, k), "%v: want a finite, non-negative weight", w)
		}
		sum += w
	}
	if len(d.Weights) != 0 && !finitePos(sum) {
		return c.errf("weights", "weights sum to %v, want a positive total", sum)
	}
	for k, x := range d.ValuesBytes {
		if !finiteNonNeg(x) || x > c.limit || (!c.lifetime && x == 0) {
			return c.v.errf(fmt.Sprintf("%s.values[%d]", path, k), "%v: want a %s in (0, %.6g] bytes", x, c.what, c.limit)
		}
	}
	return nil
}

func checkFractionOfRun(c *distCheck) error {
	if c.d.Fraction > 1 {
		return c.errf("fraction", "%v: want a fraction of the run in [0, 1]", c.d.Fraction)
	}
	return nil
}

func checkUntilPhaseEnd(c *distCheck) error {
	if c.d.Phase == "" {
		return nil
	}
	phases := c.v.s.Phases
	j := slices.IndexFunc(phases, func(p Phase) bool { return p.Name == c.d.Phase })
	switch {
	case j < 0:
		return c.errf("phase", "unknown phase %q", c.d.Phase)
	case c.phase >= 0 && j < c.phase:
		return c.errf("phase", "phase %q ends before this phase (%q) starts", c.d.Phase, phases[c.phase].Name)
	}
	return nil
}

// growSizes is the array sizes of a growing collection from from to to bytes: as an
// OrderedCollection grows (growAtLast: Array new: array size × 2), each step multiplies the
// previous array's slots by factor (rounded to whole slots; at least one more), and its size
// is that many slots' bytes (profile.ObjectBytesForSlots). The last array is to: it takes the
// place of the last step below to when it is nearer to it than a factor's square root (sizes
// given in round bytes, such as 1KiB to 1MiB, differ from a doubling of slots by the
// headers), else it follows it. At most specMaxGrowSteps + 2 sizes.
func growSizes(from, to uint64, factor float64) []uint64 {
	sizes := []uint64{min(from, to)}
	slots := float64(profile.SlotsOf(uint32(min(from, math.MaxUint32))))
	for len(sizes) <= specMaxGrowSteps {
		slots = math.Max(math.Round(slots*factor), slots+1)
		next := profile.ObjectBytesForSlots(uint64(slots))
		if next >= to {
			break
		}
		sizes = append(sizes, next)
	}
	last := len(sizes) - 1
	if last > 0 && float64(to)/float64(sizes[last]) < math.Sqrt(factor) {
		sizes[last] = to
	} else if sizes[last] < to {
		sizes = append(sizes, to)
	}
	return sizes
}

// growSteps is the number of arrays a collection growing from from to to by factor allocates.
func growSteps(from, to uint64, factor float64) int {
	return len(growSizes(from, to, factor))
}

// Origin is the name the spec was parsed under (file name or "workload:NAME"), or
// "workload:" + Name for a spec built in Go.
func (s *Spec) Origin() string {
	if s.origin != "" {
		return s.origin
	}
	return "workload:" + s.Name
}
