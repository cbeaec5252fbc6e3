package lifetimes

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/gctune/gctune/internal/units"
)

// ErrInvalidSpec is wrapped by every error ParseSpec, LoadSpec and Spec.Validate return for a
// malformed workload spec. The concrete error is a *SpecError naming the key.
var ErrInvalidSpec = errors.New("lifetimes: invalid workload spec")

// SpecError is a workload spec error located at a key: "lifetimes: spec FILE:LINE: PATH: MSG".
type SpecError struct {
	// File is the name given to ParseSpec (a file name or "workload:NAME"); may be empty.
	File string
	// Line is the 1-based line of the offending key or value, 0 when unknown (a Spec built in Go).
	Line int
	// Path is the key path, e.g. "phases[0].mix[2].share"; empty for the whole document.
	Path string
	// Msg says what is wrong and what is wanted.
	Msg string
}

// Error formats the error as "lifetimes: spec FILE:LINE: PATH: MSG", leaving out the parts
// that are unknown.
func (e *SpecError) Error() string {
	var b strings.Builder
	b.WriteString("lifetimes: spec")
	switch {
	case e.File != "" && e.Line > 0:
		fmt.Fprintf(&b, " %s:%d:", e.File, e.Line)
	case e.File != "":
		fmt.Fprintf(&b, " %s:", e.File)
	case e.Line > 0:
		fmt.Fprintf(&b, " line %d:", e.Line)
	}
	if e.Path != "" {
		b.WriteString(" ")
		b.WriteString(e.Path)
		b.WriteString(":")
	}
	b.WriteString(" ")
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap makes every SpecError match ErrInvalidSpec with errors.Is.
func (e *SpecError) Unwrap() error { return ErrInvalidSpec }

// Spec describes a workload's allocation behaviour when no recorded profile exists: classes and
// their sizes, then phases, each allocating a number of bytes with a mix of classes and
// lifetimes, plus objects allocated straight into old space (Large), collections that grow by
// copying (Growing) and long-lived objects that keep receiving references to young objects
// (Containers). Generate turns a Spec, a seed and a resolution into a Profile. The YAML form
// is documented in docs/workloads.md; ParseSpec reads it.
//
// Every byte quantity is in bytes; every lifetime is on the allocation clock (bytes allocated
// between an object's birth and its death).
type Spec struct {
	// Name identifies the workload ("dataframe-500mb"). Required.
	Name string
	// Description says in one line what the workload stands for.
	Description string
	// Resolution is the default number of records generated per real object, in (0, 1]; each
	// mix record then weighs round(1/Resolution) objects. 0 means 1 (one record per object).
	Resolution float64
	// AllocateBytes is the run's total mix allocation when the phases give their allocation as
	// a fraction (PhaseSpec.AllocateFraction); 0 when phases give bytes.
	AllocateBytes uint64
	// Reported carries what a real run of the workload reported, copied into the Profile's Meta.
	Reported ReportedSpec
	// Classes declares every class the phases allocate, with its default size distribution.
	Classes []ClassSpec
	// Phases run one after the other, in order.
	Phases []PhaseSpec

	// origin is the name ParseSpec was given (file name or "workload:NAME"), used in errors
	// and as Profile.Meta.Source.
	origin string
	// lines maps a key path to the line it was read from, for errors found by Validate.
	lines map[string]int
}

// ReportedSpec holds a real run's published or measured counts, for information: Generate
// copies them into Meta (ReportedScavenges, ReportedFullGCs, RunSeconds). Zero = unknown.
type ReportedSpec struct {
	// Scavenges is the number of scavenges the run reported (VM parameter 9; YAML "scavenges").
	Scavenges int
	// FullGCs is the number of full GCs the run reported (VM parameter 7; YAML "fullGCs").
	FullGCs int
	// RunSeconds is the run's wall-clock length in seconds (YAML "runSeconds").
	RunSeconds float64
}

// ClassSpec declares a class.
type ClassSpec struct {
	// Name is the class name, as it will appear in the Profile's class table.
	Name string
	// Size is the distribution of one object's size in bytes, header included (nil: every
	// entry using the class must give its own size). Sizes are clamped to at least 16 bytes
	// (Spur's minimum object) and rounded up to a multiple of 8 (the allocation unit).
	Size *DistSpec
}

// PhaseSpec is one phase of the run. A phase allocates AllocateBytes (or AllocateFraction of
// Spec.AllocateBytes) of small objects drawn from Mix; the Large, Growing and Containers
// objects are allocated on top of that, at their scheduled points of the phase's mix
// allocation, so the phase's length on the clock is the mix bytes plus their sizes.
type PhaseSpec struct {
	// Name identifies the phase ("load rows"). Required and unique.
	Name string
	// AllocateBytes is the phase's mix allocation in bytes (weighted object sizes).
	AllocateBytes uint64
	// AllocateFraction, when AllocateBytes is 0, is the phase's share of Spec.AllocateBytes in
	// (0, 1] (written "75%" in YAML).
	AllocateFraction float64
	// Mix is the allocation mix: the shares of the phase's allocated objects per class.
	Mix []MixSpec
	// Large lists objects allocated straight into old space.
	Large []LargeSpec
	// Growing lists collections that grow by allocating a bigger array and dropping the old one.
	Growing []GrowingSpec
	// Containers lists long-lived objects that keep receiving references to young objects.
	Containers []ContainerSpec
}

// MixSpec is one entry of a phase's allocation mix.
type MixSpec struct {
	// Class names a declared class.
	Class string
	// Share is this entry's fraction of the phase's allocated objects (by count, not bytes),
	// in (0, 1]. A phase's shares sum to 1.
	Share float64
	// Size overrides the class's size distribution (nil: the class's).
	Size *DistSpec
	// Lifetime is the distribution of each object's lifetime. Required.
	Lifetime DistSpec
	// Resolution, when above the generation resolution, samples this entry more finely (for
	// rare, big objects): records per real object in (0, 1]. 0 = the generation resolution.
	Resolution float64
}

// LargeSpec describes objects allocated straight into old space, one record (weight 1) each.
// Objects over 65,535 slots (bigger than 524,296 bytes with headers) go there by size; smaller
// ones are flagged FlagOldSpace (pinned or explicit old-space allocations).
type LargeSpec struct {
	// Class names a declared class.
	Class string
	// Size overrides the class's size distribution (nil: the class's).
	Size *DistSpec
	// Count is the number of objects, ≥ 1.
	Count int
	// Lifetime of each object; a zero DistSpec means until-end.
	Lifetime DistSpec
	// At places the objects in the phase: "even" (default: spread evenly), "start", "end" or
	// "random" (uniformly at random). Ignored when EveryBytes is set.
	At string
	// EveryBytes, when set, places object k (from 1) after k × EveryBytes of the phase's mix
	// allocation; Count × EveryBytes must not exceed the phase's allocation.
	EveryBytes uint64
}

// GrowingSpec describes Count collections growing side by side from FromBytes to ToBytes by
// Factor, like an OrderedCollection's internal array: each step allocates the bigger array and
// the previous one dies when its successor is allocated. Step j > 0 comes when the phase's mix
// allocation reaches the fraction size(j−1)/ToBytes of the phase (the content grows steadily),
// step 0 at the start. Arrays over the 65,535-slot limit go to old space by size. One record
// (weight 1) per array.
type GrowingSpec struct {
	// Class names a declared class.
	Class string
	// Count is the number of collections growing together, ≥ 1.
	Count int
	// FromBytes and ToBytes are the first and last array sizes; FromBytes ≤ ToBytes.
	FromBytes, ToBytes uint64
	// Factor is the growth factor between steps, > 1 (0 means 2).
	Factor float64
	// Lifetime of the last array; a zero DistSpec means until-end.
	Lifetime DistSpec
	// Container makes each array a Container receiving young references from its birth until
	// it is replaced (or the phase ends).
	Container bool
}

// ContainerSpec describes long-lived objects that keep receiving references to young objects
// (a DataFrame column being filled, a cache's hash table), so that once in old space they stay
// in the remembered set and are scanned at every scavenge. One record (weight 1) each, plus a
// Container entry in the Profile.
type ContainerSpec struct {
	// Class names a declared class.
	Class string
	// Slots sizes the object as a pointer array: 8 × Slots bytes plus an 8-byte header (16 for
	// 255 slots or more). Give Slots or SizeBytes, or neither to use the class's size.
	Slots int
	// SizeBytes is the object's size in bytes, header included.
	SizeBytes uint64
	// Count is the number of containers, ≥ 1 (0 means 1).
	Count int
	// Lifetime of each container; a zero DistSpec means until-end.
	Lifetime DistSpec
	// At places the containers: "start" (default), "even", "end" or "random".
	At string
	// Receives is how long it receives young references: "phase" (default: from its birth to
	// the end of the phase) or "life" (from its birth to its death).
	Receives string
	// OldSpace flags a container small enough for new space as allocated straight into old
	// space (FlagOldSpace).
	OldSpace bool
}

// DistSpec is a distribution of sizes or lifetimes, both in bytes (lifetimes on the allocation
// clock). Kind selects which fields apply:
//
//	fixed            ValueBytes
//	uniform          MinBytes..MaxBytes; as a lifetime without MaxBytes: uniform over the
//	                 rest of the run (death uniform between birth+MinBytes and the end)
//	exponential      MeanBytes
//	lognormal        MedianBytes, Sigma (of the log)
//	normal           MeanBytes, StdDevBytes
//	gamma            MeanBytes, Shape
//	weibull          ScaleBytes, Shape
//	pareto           ScaleBytes (the minimum), Alpha
//	choice           ValuesBytes, Weights (optional, default equal)
//
// Lifetimes only:
//
//	immediate        dies before the next allocation (lifetime 0)
//	until-end        alive at the end of the run (FlagAliveAtEnd)
//	until-phase-end  dies when Phase ends (default: the phase allocating it)
//	fraction-of-run  lives Fraction × the run's length
//
// For every kind but uniform, MinBytes and MaxBytes (when non-zero) clamp the samples.
// Samples are drawn with gonum's stat/distuv distributions from a seeded source.
type DistSpec struct {
	// Kind names the distribution (YAML key "dist").
	Kind string
	// ValueBytes is a fixed distribution's value ("value").
	ValueBytes float64
	// MinBytes and MaxBytes bound uniform, and clamp the other kinds ("min", "max"; 0 = none).
	MinBytes, MaxBytes float64
	// MeanBytes is the mean of exponential, normal and gamma ("mean").
	MeanBytes float64
	// MedianBytes and Sigma (of the log) parameterise lognormal ("median", "sigma").
	MedianBytes, Sigma float64
	// StdDevBytes is normal's standard deviation ("stddev").
	StdDevBytes float64
	// Shape is gamma's and weibull's shape ("shape").
	Shape float64
	// ScaleBytes is weibull's scale and pareto's minimum ("scale").
	ScaleBytes float64
	// Alpha is pareto's tail index ("alpha").
	Alpha float64
	// ValuesBytes and Weights are choice's values and their relative weights ("values",
	// "weights"; no weights = equal).
	ValuesBytes, Weights []float64
	// Fraction is fraction-of-run's share of the run, in [0, 1] ("fraction").
	Fraction float64
	// Phase names until-phase-end's phase ("phase"; empty = the allocating phase).
	Phase string
}

// Distribution kind names (DistSpec.Kind).
const (
	distFixed         = "fixed"
	distUniform       = "uniform"
	distExponential   = "exponential"
	distLognormal     = "lognormal"
	distNormal        = "normal"
	distGamma         = "gamma"
	distWeibull       = "weibull"
	distPareto        = "pareto"
	distChoice        = "choice"
	distImmediate     = "immediate"
	distUntilEnd      = "until-end"
	distUntilPhaseEnd = "until-phase-end"
	distFractionOfRun = "fraction-of-run"
)

// specDistKeys lists, per kind, the YAML keys besides "dist" it accepts.
func specDistKeys(kind string) (keys []string, lifetimeOnly, ok bool) {
	switch kind {
	case distFixed:
		return []string{"value"}, false, true
	case distUniform:
		return []string{"min", "max"}, false, true
	case distExponential:
		return []string{"mean", "min", "max"}, false, true
	case distLognormal:
		return []string{"median", "sigma", "min", "max"}, false, true
	case distNormal:
		return []string{"mean", "stddev", "min", "max"}, false, true
	case distGamma:
		return []string{"mean", "shape", "min", "max"}, false, true
	case distWeibull:
		return []string{"scale", "shape", "min", "max"}, false, true
	case distPareto:
		return []string{"scale", "alpha", "min", "max"}, false, true
	case distChoice:
		return []string{"values", "weights", "min", "max"}, false, true
	case distImmediate, distUntilEnd:
		return nil, true, true
	case distUntilPhaseEnd:
		return []string{"phase"}, true, true
	case distFractionOfRun:
		return []string{"fraction"}, true, true
	}
	return nil, false, false
}

// specDistKinds returns the kinds allowed for sizes (lifetime false) or lifetimes.
func specDistKinds(lifetime bool) []string {
	k := []string{distFixed, distUniform, distExponential, distLognormal, distNormal, distGamma, distWeibull, distPareto, distChoice}
	if lifetime {
		k = append(k, distImmediate, distUntilEnd, distUntilPhaseEnd, distFractionOfRun)
	}
	return k
}

// Limits that keep a spec within what a Profile can hold and a generator can produce.
const (
	// specMaxObjectBytes is the largest object a record can describe (SizeBytes is a uint32,
	// rounded to 8).
	specMaxObjectBytes = math.MaxUint32 &^ 7
	// specMaxRunBytes bounds the run's length on the clock (2^62 bytes), far beyond any real
	// run, so that clock arithmetic cannot overflow.
	specMaxRunBytes = 1 << 62
	// specMinResolution bounds resolutions so weights fit a uint32.
	specMinResolution = 1e-9
	// specMaxGrowSteps bounds a growing collection's steps.
	specMaxGrowSteps = 64
	// specShareTolerance is how far a phase's shares may sum from 1.
	specShareTolerance = 1e-6
)

// LoadSpec reads and parses a workload spec file; errors name the file.
func LoadSpec(path string) (*Spec, error) {
	data, err := ReadCapped(path, MaxSpecBytes, "spec")
	if err != nil {
		return nil, fmt.Errorf("lifetimes: load spec: %w", err)
	}
	return ParseSpec(data, path)
}

// ParseSpec parses and validates a YAML workload spec (see docs/workloads.md). name identifies
// the document in errors and becomes the generated Profile's Meta.Source (a file name, or
// "workload:NAME"; empty means "workload:" + the spec's name). Unknown keys, wrong types, bad
// units, unknown distributions and inconsistent values are refused with a *SpecError naming
// the key path and line; every error wraps ErrInvalidSpec.
func ParseSpec(data []byte, name string) (*Spec, error) {
	p := &specParser{file: name, lines: make(map[string]int)}
	s, err := p.parse(data)
	if err != nil {
		return nil, err
	}
	s.origin = name
	s.lines = p.lines
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// specParser walks the YAML node tree by hand rather than decoding into structs, so that each
// error can name the full key path and line, unknown keys are refused with the list of known
// ones, and shorthands ("lifetime: until-end", "size: 24MB", "allocate: 75%") need no
// reflection tricks. It is as strict as yaml.v3's Decoder.KnownFields(true), and stricter:
// duplicate keys, merge keys and multiple documents are refused too.
type specParser struct {
	file    string
	lines   map[string]int
	aliases *aliasBudget // bounds the nodes walked through aliases (yamlbound.go)
}

func (p *specParser) errf(n *yaml.Node, path, format string, args ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &SpecError{File: p.file, Line: line, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// resolve follows aliases (bounded, in case of an alias cycle).
func (p *specParser) resolve(n *yaml.Node, path string) (*yaml.Node, error) {
	for i := 0; n != nil && n.Kind == yaml.AliasNode; i++ {
		if i > 32 {
			return nil, p.errf(n, path, "alias chain too long")
		}
		if err := p.aliases.follow(n.Alias); err != nil {
			return nil, p.errf(n, path, "%v", err)
		}
		n = n.Alias
	}
	if n == nil {
		return nil, p.errf(nil, path, "missing value")
	}
	return n, nil
}

type specField struct {
	key   string
	node  *yaml.Node // the value
	path  string
	keyAt *yaml.Node
}

// mapping returns the fields of a mapping node in document order, refusing duplicate and
// unknown keys.
func (p *specParser) mapping(n *yaml.Node, path string, known []string) ([]specField, error) {
	n, err := p.resolve(n, path)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.MappingNode {
		return nil, p.errf(n, path, "want a mapping (key: value lines), got %s", specNodeKind(n))
	}
	fields := make([]specField, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, err := p.resolve(n.Content[i], path)
		if err != nil {
			return nil, err
		}
		if k.Kind != yaml.ScalarNode {
			return nil, p.errf(k, path, "want a plain key, got %s", specNodeKind(k))
		}
		key := k.Value
		sub := specJoin(path, key)
		if !slices.Contains(known, key) {
			return nil, p.errf(k, path, "unknown key %q (known keys: %s)", key, strings.Join(known, ", "))
		}
		for _, f := range fields {
			if f.key == key {
				return nil, p.errf(k, path, "key %q given twice", key)
			}
		}
		p.lines[sub] = k.Line
		fields = append(fields, specField{key: key, node: n.Content[i+1], path: sub, keyAt: k})
	}
	return fields, nil
}

func (p *specParser) sequence(n *yaml.Node, path string) ([]*yaml.Node, error) {
	n, err := p.resolve(n, path)
	if err != nil {
		return nil, err
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, p.errf(n, path, "want a list, got %s", specNodeKind(n))
	}
	return n.Content, nil
}

func (p *specParser) scalar(n *yaml.Node, path string) (*yaml.Node, error) {
	n, err := p.resolve(n, path)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.ScalarNode {
		return nil, p.errf(n, path, "want a single value, got %s", specNodeKind(n))
	}
	return n, nil
}

func (p *specParser) str(n *yaml.Node, path string) (string, error) {
	s, err := p.scalar(n, path)
	if err != nil {
		return "", err
	}
	if s.Tag == "!!null" {
		return "", nil
	}
	return s.Value, nil
}

func (p *specParser) boolean(n *yaml.Node, path string) (bool, error) {
	s, err := p.scalar(n, path)
	if err != nil {
		return false, err
	}
	var v bool
	if s.ShortTag() != "!!bool" || s.Decode(&v) != nil {
		return false, p.errf(s, path, "want true or false, got %q", s.Value)
	}
	return v, nil
}

// number reads a dimensionless, finite, non-negative number.
func (p *specParser) number(n *yaml.Node, path string) (float64, error) {
	s, err := p.scalar(n, path)
	if err != nil {
		return 0, err
	}
	var v float64
	if t := s.ShortTag(); (t != "!!int" && t != "!!float") || s.Decode(&v) != nil {
		return 0, p.errf(s, path, "want a number, got %q", s.Value)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, p.errf(s, path, "want a finite number, got %q", s.Value)
	}
	if v < 0 {
		return 0, p.errf(s, path, "must not be negative, got %q", s.Value)
	}
	return v, nil
}

// integer reads a non-negative integer (1e6 and 1_000_000 are accepted).
func (p *specParser) integer(n *yaml.Node, path string) (int, error) {
	v, err := p.number(n, path)
	if err != nil {
		return 0, err
	}
	if v != math.Trunc(v) || v > math.MaxInt32 {
		return 0, p.errf(n, path, "want a whole number up to %d, got %q", math.MaxInt32, n.Value)
	}
	return int(v), nil
}

// bytesValue reads a byte quantity: a plain number of bytes, or a number with a unit as
// internal/units.ParseBytes accepts it (k/m/g/t and KiB/MiB/GiB/TiB binary; kB/KB/MB/GB/TB
// decimal).
func (p *specParser) bytesValue(n *yaml.Node, path string) (float64, error) {
	s, err := p.scalar(n, path)
	if err != nil {
		return 0, err
	}
	switch s.ShortTag() {
	case "!!int", "!!float":
		return p.number(s, path)
	case "!!str":
		v := strings.TrimSpace(s.Value)
		if strings.HasPrefix(v, "-") {
			return 0, p.errf(s, path, "must not be negative, got %q", s.Value)
		}
		b, err := units.ParseBytes(v)
		if err != nil {
			return 0, p.errf(s, path, "bad byte size %q: want a number of bytes with an optional unit (24, 48B, 512KiB, 2MB, 3.1GB)", s.Value)
		}
		return float64(b), nil
	}
	return 0, p.errf(s, path, "want a byte size (24, 48B, 512KiB, 2MB, 3.1GB), got %q", s.Value)
}

func (p *specParser) numbers(n *yaml.Node, path string, byteValues bool) ([]float64, error) {
	items, err := p.sequence(n, path)
	if err != nil {
		return nil, err
	}
	out := make([]float64, 0, len(items))
	for i, it := range items {
		var v float64
		if byteValues {
			v, err = p.bytesValue(it, fmt.Sprintf("%s[%d]", path, i))
		} else {
			v, err = p.number(it, fmt.Sprintf("%s[%d]", path, i))
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (p *specParser) parse(data []byte) (*Spec, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := specDecode(dec, &doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, p.errf(nil, "", "empty document")
		}
		return nil, p.errf(nil, "", "not valid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var extra yaml.Node
	if err := specDecode(dec, &extra); !errors.Is(err, io.EOF) {
		return nil, p.errf(&extra, "", "want a single YAML document")
	}
	root := &doc
	p.aliases = newAliasBudget(root)
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) != 1 {
			return nil, p.errf(root, "", "empty document")
		}
		root = root.Content[0]
	}
	fields, err := p.mapping(root, "", []string{"name", "description", "resolution", "allocate", "reported", "classes", "phases"})
	if err != nil {
		return nil, err
	}
	s := &Spec{}
	for _, f := range fields {
		switch f.key {
		case "name":
			s.Name, err = p.str(f.node, f.path)
		case "description":
			s.Description, err = p.str(f.node, f.path)
		case "resolution":
			s.Resolution, err = p.resolution(f.node, f.path)
		case "allocate":
			var v float64
			v, err = p.bytesValue(f.node, f.path)
			s.AllocateBytes = specBytes(v)
		case "reported":
			err = p.reported(f.node, f.path, &s.Reported)
		case "classes":
			err = p.classes(f.node, f.path, s)
		case "phases":
			err = p.phases(f.node, f.path, s)
		}
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// specDecode runs the YAML decoder, turning a panic inside it into an error.
func specDecode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml decoder failed: %v", r)
		}
	}()
	return dec.Decode(n)
}

func (p *specParser) reported(n *yaml.Node, path string, r *ReportedSpec) error {
	fields, err := p.mapping(n, path, []string{"scavenges", "fullGCs", "runSeconds"})
	if err != nil {
		return err
	}
	for _, f := range fields {
		switch f.key {
		case "scavenges":
			r.Scavenges, err = p.integer(f.node, f.path)
		case "fullGCs":
			r.FullGCs, err = p.integer(f.node, f.path)
		case "runSeconds":
			r.RunSeconds, err = p.number(f.node, f.path)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *specParser) classes(n *yaml.Node, path string, s *Spec) error {
	items, err := p.sequence(n, path)
	if err != nil {
		return err
	}
	for i, it := range items {
		ip := fmt.Sprintf("%s[%d]", path, i)
		p.lines[ip] = it.Line
		fields, err := p.mapping(it, ip, []string{"name", "size"})
		if err != nil {
			return err
		}
		var c ClassSpec
		for _, f := range fields {
			switch f.key {
			case "name":
				c.Name, err = p.str(f.node, f.path)
			case "size":
				c.Size, err = p.distPtr(f.node, f.path, false)
			}
			if err != nil {
				return err
			}
		}
		s.Classes = append(s.Classes, c)
	}
	return nil
}

func (p *specParser) phases(n *yaml.Node, path string, s *Spec) error {
	items, err := p.sequence(n, path)
	if err != nil {
		return err
	}
	for i, it := range items {
		ip := fmt.Sprintf("%s[%d]", path, i)
		p.lines[ip] = it.Line
		fields, err := p.mapping(it, ip, []string{"name", "allocate", "mix", "large", "growing", "containers"})
		if err != nil {
			return err
		}
		var ph PhaseSpec
		for _, f := range fields {
			switch f.key {
			case "name":
				ph.Name, err = p.str(f.node, f.path)
			case "allocate":
				err = p.allocate(f.node, f.path, &ph)
			case "mix":
				err = p.list(f.node, f.path, func(n *yaml.Node, path string) error {
					m, err := p.mix(n, path)
					ph.Mix = append(ph.Mix, m)
					return err
				})
			case "large":
				err = p.list(f.node, f.path, func(n *yaml.Node, path string) error {
					l, err := p.large(n, path)
					ph.Large = append(ph.Large, l)
					return err
				})
			case "growing":
				err = p.list(f.node, f.path, func(n *yaml.Node, path string) error {
					g, err := p.growing(n, path)
					ph.Growing = append(ph.Growing, g)
					return err
				})
			case "containers":
				err = p.list(f.node, f.path, func(n *yaml.Node, path string) error {
					c, err := p.container(n, path)
					ph.Containers = append(ph.Containers, c)
					return err
				})
			}
			if err != nil {
				return err
			}
		}
		s.Phases = append(s.Phases, ph)
	}
	return nil
}

func (p *specParser) list(n *yaml.Node, path string, each func(*yaml.Node, string) error) error {
	items, err := p.sequence(n, path)
	if err != nil {
		return err
	}
	for i, it := range items {
		ip := fmt.Sprintf("%s[%d]", path, i)
		p.lines[ip] = it.Line
		if err := each(it, ip); err != nil {
			return err
		}
	}
	return nil
}

func (p *specParser) allocate(n *yaml.Node, path string, ph *PhaseSpec) error {
	s, err := p.scalar(n, path)
	if err != nil {
		return err
	}
	if v := strings.TrimSpace(s.Value); s.ShortTag() == "!!str" && strings.HasSuffix(v, "%") {
		f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(v, "%")), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f <= 0 || f > 100 {
			return p.errf(s, path, "bad percentage %q: want a share of the spec's allocate in (0%%, 100%%]", s.Value)
		}
		ph.AllocateFraction = f / 100
		return nil
	}
	v, err := p.bytesValue(s, path)
	ph.AllocateBytes = specBytes(v)
	return err
}

func (p *specParser) mix(n *yaml.Node, path string) (MixSpec, error) {
	var m MixSpec
	fields, err := p.mapping(n, path, []string{"class", "share", "size", "lifetime", "resolution"})
	if err != nil {
		return m, err
	}
	for _, f := range fields {
		switch f.key {
		case "class":
			m.Class, err = p.str(f.node, f.path)
		case "share":
			m.Share, err = p.number(f.node, f.path)
		case "size":
			m.Size, err = p.distPtr(f.node, f.path, false)
		case "lifetime":
			m.Lifetime, err = p.dist(f.node, f.path, true)
		case "resolution":
			m.Resolution, err = p.resolution(f.node, f.path)
		}
		if err != nil {
			return m, err
		}
	}
	return m, nil
}

func (p *specParser) large(n *yaml.Node, path string) (LargeSpec, error) {
	var l LargeSpec
	fields, err := p.mapping(n, path, []string{"class", "size", "count", "lifetime", "at", "every"})
	if err != nil {
		return l, err
	}
	for _, f := range fields {
		switch f.key {
		case "class":
			l.Class, err = p.str(f.node, f.path)
		case "size":
			l.Size, err = p.distPtr(f.node, f.path, false)
		case "count":
			l.Count, err = p.integer(f.node, f.path)
		case "lifetime":
			l.Lifetime, err = p.dist(f.node, f.path, true)
		case "at":
			l.At, err = p.str(f.node, f.path)
		case "every":
			var v float64
			v, err = p.bytesValue(f.node, f.path)
			l.EveryBytes = specBytes(v)
		}
		if err != nil {
			return l, err
		}
	}
	return l, nil
}

func (p *specParser) growing(n *yaml.Node, path string) (GrowingSpec, error) {
	var g GrowingSpec
	fields, err := p.mapping(n, path, []string{"class", "count", "from", "to", "factor", "lifetime", "container"})
	if err != nil {
		return g, err
	}
	for _, f := range fields {
		var v float64
		switch f.key {
		case "class":
			g.Class, err = p.str(f.node, f.path)
		case "count":
			g.Count, err = p.integer(f.node, f.path)
		case "from":
			v, err = p.bytesValue(f.node, f.path)
			g.FromBytes = specBytes(v)
		case "to":
			v, err = p.bytesValue(f.node, f.path)
			g.ToBytes = specBytes(v)
		case "factor":
			g.Factor, err = p.number(f.node, f.path)
		case "lifetime":
			g.Lifetime, err = p.dist(f.node, f.path, true)
		case "container":
			g.Container, err = p.boolean(f.node, f.path)
		}
		if err != nil {
			return g, err
		}
	}
	return g, nil
}

func (p *specParser) container(n *yaml.Node, path string) (ContainerSpec, error) {
	var c ContainerSpec
	fields, err := p.mapping(n, path, []string{"class", "slots", "size", "count", "lifetime", "at", "receives", "oldSpace"})
	if err != nil {
		return c, err
	}
	for _, f := range fields {
		switch f.key {
		case "class":
			c.Class, err = p.str(f.node, f.path)
		case "slots":
			c.Slots, err = p.integer(f.node, f.path)
		case "size":
			var v float64
			v, err = p.bytesValue(f.node, f.path)
			c.SizeBytes = specBytes(v)
		case "count":
			c.Count, err = p.integer(f.node, f.path)
		case "lifetime":
			c.Lifetime, err = p.dist(f.node, f.path, true)
		case "at":
			c.At, err = p.str(f.node, f.path)
		case "receives":
			c.Receives, err = p.str(f.node, f.path)
		case "oldSpace":
			c.OldSpace, err = p.boolean(f.node, f.path)
		}
		if err != nil {
			return c, err
		}
	}
	return c, nil
}

func (p *specParser) distPtr(n *yaml.Node, path string, lifetime bool) (*DistSpec, error) {
	d, err := p.dist(n, path, lifetime)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// dist reads a distribution: a mapping with a "dist" key, a bare kind name for the kinds
// without parameters ("until-end"), or a bare byte quantity for a fixed value ("24MB").
func (p *specParser) dist(n *yaml.Node, path string, lifetime bool) (DistSpec, error) {
	var d DistSpec
	r, err := p.resolve(n, path)
	if err != nil {
		return d, err
	}
	what := "size"
	if lifetime {
		what = "lifetime"
	}
	if r.Kind == yaml.ScalarNode {
		if keys, lifeOnly, ok := specDistKeys(r.Value); ok && r.ShortTag() == "!!str" {
			if lifeOnly && !lifetime {
				return d, p.errf(r, path, "distribution %q is for lifetimes, not sizes (size distributions: %s)", r.Value, strings.Join(specDistKinds(false), ", "))
			}
			if len(keys) > 0 && r.Value != distUntilPhaseEnd && r.Value != distUniform {
				return d, p.errf(r, path, "distribution %q needs parameters: write {dist: %s, %s: ...}", r.Value, r.Value, keys[0])
			}
			d.Kind = r.Value
			return d, nil
		}
		v, err := p.bytesValue(r, path)
		if err != nil {
			if se, ok := errors.AsType[*SpecError](err); ok && r.ShortTag() == "!!str" && !startsWithDigit(r.Value) {
				se.Msg = fmt.Sprintf("unknown %s distribution %q (want a byte size or one of: %s)", what, r.Value, strings.Join(specDistKinds(lifetime), ", "))
			}
			return d, err
		}
		d.Kind, d.ValueBytes = distFixed, v
		return d, nil
	}
	r, err = p.resolve(r, path)
	if err != nil {
		return d, err
	}
	if r.Kind != yaml.MappingNode {
		return d, p.errf(r, path, "want a %s distribution ({dist: NAME, ...}) or a byte size, got %s", what, specNodeKind(r))
	}
	// Find the kind first, so unknown keys can be reported against it.
	var kindNode *yaml.Node
	for i := 0; i+1 < len(r.Content); i += 2 {
		if k := r.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "dist" {
			kindNode = r.Content[i+1]
		}
	}
	if kindNode == nil {
		return d, p.errf(r, path, "missing key \"dist\" (one of: %s)", strings.Join(specDistKinds(lifetime), ", "))
	}
	kind, err := p.str(kindNode, specJoin(path, "dist"))
	if err != nil {
		return d, err
	}
	keys, lifeOnly, ok := specDistKeys(kind)
	if !ok {
		return d, p.errf(kindNode, specJoin(path, "dist"), "unknown %s distribution %q (want one of: %s)", what, kind, strings.Join(specDistKinds(lifetime), ", "))
	}
	if lifeOnly && !lifetime {
		return d, p.errf(kindNode, specJoin(path, "dist"), "distribution %q is for lifetimes, not sizes (size distributions: %s)", kind, strings.Join(specDistKinds(false), ", "))
	}
	d.Kind = kind
	fields, err := p.mapping(r, path, append([]string{"dist"}, keys...))
	if err != nil {
		if se, ok := errors.AsType[*SpecError](err); ok && strings.HasPrefix(se.Msg, "unknown key") {
			se.Msg = strings.Replace(se.Msg, "(known keys:", fmt.Sprintf("(distribution %s takes:", kind), 1)
		}
		return d, err
	}
	for _, f := range fields {
		switch f.key {
		case "dist":
			continue
		case "value":
			d.ValueBytes, err = p.bytesValue(f.node, f.path)
		case "min":
			d.MinBytes, err = p.bytesValue(f.node, f.path)
		case "max":
			d.MaxBytes, err = p.bytesValue(f.node, f.path)
		case "mean":
			d.MeanBytes, err = p.bytesValue(f.node, f.path)
		case "median":
			d.MedianBytes, err = p.bytesValue(f.node, f.path)
		case "stddev":
			d.StdDevBytes, err = p.bytesValue(f.node, f.path)
		case "scale":
			d.ScaleBytes, err = p.bytesValue(f.node, f.path)
		case "sigma":
			d.Sigma, err = p.number(f.node, f.path)
		case "shape":
			d.Shape, err = p.number(f.node, f.path)
		case "alpha":
			d.Alpha, err = p.number(f.node, f.path)
		case "fraction":
			d.Fraction, err = p.number(f.node, f.path)
		case "phase":
			d.Phase, err = p.str(f.node, f.path)
		case "values":
			d.ValuesBytes, err = p.numbers(f.node, f.path, true)
		case "weights":
			d.Weights, err = p.numbers(f.node, f.path, false)
		}
		if err != nil {
			return d, err
		}
	}
	return d, nil
}

func startsWithDigit(s string) bool {
	s = strings.TrimSpace(s)
	return s != "" && (s[0] >= '0' && s[0] <= '9' || s[0] == '.')
}

func specNodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	case yaml.DocumentNode:
		return "a document"
	}
	return "an alias"
}

func specJoin(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// specBytes converts a validated non-negative byte count to uint64, saturating.
func specBytes(v float64) uint64 {
	if v >= float64(math.MaxUint64) {
		return math.MaxUint64
	}
	return uint64(math.Round(v))
}

// Validate checks the spec's consistency: names present and unique, classes declared, sizes
// available, shares summing to 1, distribution parameters in range, placements known,
// until-phase-end naming this or a later phase, and the run within 2^62 bytes. Errors are
// *SpecError values naming the key path and wrap ErrInvalidSpec.
func (s *Spec) Validate() error {
	v := specValidator{s: s}
	return v.run()
}

type specValidator struct {
	s       *Spec
	classes map[string]int
}

func (v *specValidator) errf(path, format string, args ...any) error {
	return &SpecError{File: v.s.origin, Line: v.s.line(path), Path: path, Msg: fmt.Sprintf(format, args...)}
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
			size = float64(containerBytes(c.Slots))
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
func (v *specValidator) sizeBound(own *DistSpec, class string) float64 {
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
	return math.Max(minObjectBytes, math.Min(hi+8, specMaxObjectBytes))
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
func (v *specValidator) sizeOf(own *DistSpec, class int, path string, phase int) error {
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
			if containerBytes(c.Slots) > specMaxObjectBytes {
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
		case "", "phase", "life":
		default:
			return v.errf(cp+".receives", "unknown %q (want phase or life)", c.Receives)
		}
		if err := v.optionalLifetime(&c.Lifetime, cp+".lifetime", i); err != nil {
			return err
		}
	}
	return nil
}

func (v *specValidator) optionalLifetime(d *DistSpec, path string, phase int) error {
	if d.Kind == "" {
		if !zeroDist(d) {
			return v.errf(path+".dist", "missing distribution name")
		}
		return nil
	}
	return v.dist(d, path, true, phase)
}

func zeroDist(d *DistSpec) bool {
	return d.ValueBytes == 0 && d.MinBytes == 0 && d.MaxBytes == 0 && d.MeanBytes == 0 && d.MedianBytes == 0 &&
		d.Sigma == 0 && d.StdDevBytes == 0 && d.Shape == 0 && d.ScaleBytes == 0 && d.Alpha == 0 &&
		len(d.ValuesBytes) == 0 && len(d.Weights) == 0 && d.Fraction == 0 && d.Phase == ""
}

func finitePos(x float64) bool    { return x > 0 && !math.IsInf(x, 0) }
func finiteNonNeg(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }

// dist checks a distribution. phase is the index of the phase using it (-1 for a class size).
func (v *specValidator) dist(d *DistSpec, path string, lifetime bool, phase int) error {
	what := "size"
	if lifetime {
		what = "lifetime"
	}
	keys, lifeOnly, ok := specDistKeys(d.Kind)
	if !ok {
		return v.errf(path+".dist", "unknown %s distribution %q (want one of: %s)", what, d.Kind, strings.Join(specDistKinds(lifetime), ", "))
	}
	if lifeOnly && !lifetime {
		return v.errf(path+".dist", "distribution %q is for lifetimes, not sizes", d.Kind)
	}
	// Parameters the kind does not take must be unset (a Spec built in Go).
	set := map[string]bool{
		"value": d.ValueBytes != 0, "min": d.MinBytes != 0, "max": d.MaxBytes != 0, "mean": d.MeanBytes != 0,
		"median": d.MedianBytes != 0, "sigma": d.Sigma != 0, "stddev": d.StdDevBytes != 0, "shape": d.Shape != 0,
		"scale": d.ScaleBytes != 0, "alpha": d.Alpha != 0, "values": len(d.ValuesBytes) != 0,
		"weights": len(d.Weights) != 0, "fraction": d.Fraction != 0, "phase": d.Phase != "",
	}
	for _, k := range []string{"value", "min", "max", "mean", "median", "sigma", "stddev", "shape", "scale", "alpha", "values", "weights", "fraction", "phase"} {
		if set[k] && !slices.Contains(keys, k) {
			return v.errf(path+"."+k, "distribution %s does not take %s", d.Kind, k)
		}
	}
	for k, x := range map[string]float64{"value": d.ValueBytes, "min": d.MinBytes, "max": d.MaxBytes, "mean": d.MeanBytes,
		"median": d.MedianBytes, "sigma": d.Sigma, "stddev": d.StdDevBytes, "shape": d.Shape, "scale": d.ScaleBytes,
		"alpha": d.Alpha, "fraction": d.Fraction} {
		if !finiteNonNeg(x) {
			return v.errf(path+"."+k, "%v: want a finite, non-negative number", x)
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
	need := func(k string, x float64) error {
		if !finitePos(x) {
			return v.errf(path+"."+k, "missing or zero: distribution %s needs %s > 0", d.Kind, k)
		}
		if x > limit && k != "sigma" && k != "shape" && k != "alpha" {
			return v.errf(path+"."+k, "%.6g %s is more than %.6g", x, unit, limit)
		}
		return nil
	}
	var err error
	switch d.Kind {
	case distFixed:
		if !lifetime && d.ValueBytes == 0 {
			err = v.errf(path+".value", "missing or zero: a size must be positive")
		} else if d.ValueBytes > limit {
			err = v.errf(path+".value", "%.6g %s is more than %.6g", d.ValueBytes, unit, limit)
		}
	case distUniform:
		if !lifetime && d.MaxBytes == 0 {
			err = v.errf(path+".max", "missing: a uniform size needs max")
		} else if d.MaxBytes > limit {
			err = v.errf(path+".max", "%.6g %s is more than %.6g", d.MaxBytes, unit, limit)
		}
	case distExponential:
		err = need("mean", d.MeanBytes)
	case distLognormal:
		err = need("median", d.MedianBytes)
		if err == nil && (d.Sigma > 20) {
			err = v.errf(path+".sigma", "%v: want a sigma (of the log) up to 20", d.Sigma)
		}
	case distNormal:
		err = need("mean", d.MeanBytes)
	case distGamma:
		if err = need("mean", d.MeanBytes); err == nil {
			err = need("shape", d.Shape)
		}
		if err == nil && (d.Shape < 1e-3 || d.Shape > 1e6) {
			err = v.errf(path+".shape", "%v: want a shape in [0.001, 1e6]", d.Shape)
		}
	case distWeibull:
		if err = need("scale", d.ScaleBytes); err == nil {
			err = need("shape", d.Shape)
		}
		if err == nil && (d.Shape < 1e-3 || d.Shape > 1e6) {
			err = v.errf(path+".shape", "%v: want a shape in [0.001, 1e6]", d.Shape)
		}
	case distPareto:
		if err = need("scale", d.ScaleBytes); err == nil {
			err = need("alpha", d.Alpha)
		}
		if err == nil && (d.Alpha < 1e-3 || d.Alpha > 1e6) {
			err = v.errf(path+".alpha", "%v: want an alpha in [0.001, 1e6]", d.Alpha)
		}
	case distChoice:
		if len(d.ValuesBytes) == 0 {
			return v.errf(path+".values", "missing: choice needs a list of values")
		}
		if len(d.ValuesBytes) > 1<<16 {
			return v.errf(path+".values", "%d values, more than %d", len(d.ValuesBytes), 1<<16)
		}
		if len(d.Weights) != 0 && len(d.Weights) != len(d.ValuesBytes) {
			return v.errf(path+".weights", "%d weights for %d values", len(d.Weights), len(d.ValuesBytes))
		}
		sum := 0.0
		for k, w := range d.Weights {
			if !finiteNonNeg(w) {
				return v.errf(fmt.Sprintf("%s.weights[%d]", path, k), "%v: want a finite, non-negative weight", w)
			}
			sum += w
		}
		if len(d.Weights) != 0 && !finitePos(sum) {
			return v.errf(path+".weights", "weights sum to %v, want a positive total", sum)
		}
		for k, x := range d.ValuesBytes {
			if !finiteNonNeg(x) || x > limit || (!lifetime && x == 0) {
				return v.errf(fmt.Sprintf("%s.values[%d]", path, k), "%v: want a %s in (0, %.6g] bytes", x, what, limit)
			}
		}
	case distFractionOfRun:
		if d.Fraction > 1 {
			err = v.errf(path+".fraction", "%v: want a fraction of the run in [0, 1]", d.Fraction)
		}
	case distUntilPhaseEnd:
		if d.Phase != "" {
			j := slices.IndexFunc(v.s.Phases, func(p PhaseSpec) bool { return p.Name == d.Phase })
			switch {
			case j < 0:
				err = v.errf(path+".phase", "unknown phase %q", d.Phase)
			case phase >= 0 && j < phase:
				err = v.errf(path+".phase", "phase %q ends before this phase (%q) starts", d.Phase, v.s.Phases[phase].Name)
			}
		}
	}
	if err != nil {
		return err
	}
	if d.MaxBytes > limit {
		return v.errf(path+".max", "%.6g %s is more than %.6g", d.MaxBytes, unit, limit)
	}
	return nil
}

// containerBytes is the size of a pointer array of n slots: 8 bytes per slot plus a header of
// 8 bytes, 16 from 255 slots on (spur-gc-model.md §2.1).
func containerBytes(slots int) uint64 {
	b := 8 + 8*uint64(max(slots, 1))
	if slots >= 255 {
		b += 8
	}
	return b
}

// growSteps is the number of arrays a collection growing from from to to by factor allocates.
func growSteps(from, to uint64, factor float64) int {
	n := 1
	for s := float64(from); s < float64(to) && n <= specMaxGrowSteps; s *= factor {
		n++
	}
	return n
}

// Origin is the name the spec was parsed under (file name or "workload:NAME"), or
// "workload:" + Name for a spec built in Go.
func (s *Spec) Origin() string {
	if s.origin != "" {
		return s.origin
	}
	return "workload:" + s.Name
}
